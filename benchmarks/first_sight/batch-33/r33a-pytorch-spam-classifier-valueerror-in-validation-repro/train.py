"""Spam filter for the in-app chat: EmbeddingBag (mean of word vectors) + MLP, binary BCE."""
import random
import re
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
HAM = ["see you at the standup", "can you review my pr", "lunch at noon?", "the build is green again",
       "pushed the fix to main", "meeting moved to 3pm", "thanks for the help", "where is the design doc"]
SPAM = ["win a free iphone now", "click here to claim your prize", "cheap crypto signals join now",
        "you have been selected winner", "limited offer buy followers", "earn money fast from home"]
FILLER = "ok so just fyi hey team quick note also btw please".split()


def synth(n):
    rows = []
    for _ in range(n):
        spam = random.random() < 0.3
        base = random.choice(SPAM if spam else HAM).split()
        words = base + random.sample(FILLER, random.randint(0, 4))
        random.shuffle(words)
        rows.append((" ".join(words), int(spam)))
    return rows


def tokenize(s):
    return re.findall(r"[a-z0-9']+", s.lower())


train_rows, val_rows = synth(12000), synth(2001)
vocab = {"<unk>": 0}
for text, _ in train_rows:
    for w in tokenize(text):
        vocab.setdefault(w, len(vocab))


class Messages(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        return torch.tensor([vocab.get(w, 0) for w in tokenize(text)]), torch.tensor(label, dtype=torch.float32)


def collate(batch):
    ids = [b[0] for b in batch]
    offsets = torch.tensor([0] + [len(t) for t in ids[:-1]]).cumsum(0)
    return torch.cat(ids), offsets, torch.stack([b[1] for b in batch])


class SpamNet(nn.Module):
    def __init__(self, n_vocab, dim=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(n_vocab, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, ids, offsets):
        return self.mlp(self.emb(ids, offsets))


train_dl = DataLoader(Messages(train_rows), batch_size=128, shuffle=True, collate_fn=collate)
val_dl = DataLoader(Messages(val_rows), batch_size=250, shuffle=False, collate_fn=collate)
print(f"vocab {len(vocab)}  train {len(train_rows)}  val {len(val_rows)}")

model = SpamNet(len(vocab))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(4):
    model.train()
    t0, tot = time.time(), 0.0
    for ids, offsets, y in train_dl:
        logits = model(ids, offsets).squeeze()
        loss = F.binary_cross_entropy_with_logits(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(y)
    print(f"epoch {epoch} train_loss {tot / len(train_rows):.4f} ({time.time() - t0:.1f}s)")

    model.eval()
    vloss, correct = 0.0, 0
    with torch.no_grad():
        for ids, offsets, y in val_dl:
            logits = model(ids, offsets).squeeze()
            vloss += F.binary_cross_entropy_with_logits(logits, y, reduction="sum").item()
            correct += ((logits > 0).float() == y).sum().item()
    print(f"epoch {epoch} val_loss {vloss / len(val_rows):.4f} val_acc {correct / len(val_rows):.4f}")
