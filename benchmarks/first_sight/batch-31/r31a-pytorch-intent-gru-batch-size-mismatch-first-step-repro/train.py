"""Intent classifier for support chat messages: word vocab + BiGRU + masked mean pooling."""
import random
import re
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)

INTENTS = {
    "refund": ["i want my money back", "please refund the order", "refund for damaged item", "charge back the payment"],
    "shipping": ["where is my package", "tracking shows no update", "delivery is late again", "when will it ship"],
    "account": ["cannot log in to my account", "reset my password please", "change the email on file", "account locked"],
    "cancel": ["cancel my subscription", "stop the monthly plan", "please cancel the order", "end my membership now"],
}
FILLERS = ["hi", "hello", "thanks", "urgent", "asap", "team", "again", "today", "please", "ok"]
PAD, UNK = 0, 1


def make_messages(n):
    rows = []
    labels = list(INTENTS)
    for _ in range(n):
        y = random.randrange(len(labels))
        core = random.choice(INTENTS[labels[y]])
        words = random.sample(FILLERS, random.randint(0, 4)) + core.split() + random.sample(FILLERS, random.randint(0, 3))
        rows.append((" ".join(words), y))
    return rows


def tokenize(text):
    return re.findall(r"[a-z']+", text.lower())


class ChatDataset(Dataset):
    def __init__(self, rows, vocab):
        self.rows = rows
        self.vocab = vocab

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, y = self.rows[i]
        ids = [self.vocab.get(w, UNK) for w in tokenize(text)]
        return torch.tensor(ids), y


def collate(batch):
    seqs, ys = zip(*batch)
    ids = pad_sequence(seqs, padding_value=PAD)
    return ids, torch.tensor(ys)


class IntentGRU(nn.Module):
    def __init__(self, vocab_size, n_classes, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.gru = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * dim, n_classes)

    def forward(self, ids):
        mask = (ids != PAD).unsqueeze(-1).float()
        h, _ = self.gru(self.emb(ids))
        pooled = (h * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(pooled)


def main():
    train_rows, val_rows = make_messages(4000), make_messages(800)
    counts = Counter(w for text, _ in train_rows for w in tokenize(text))
    vocab = {w: i + 2 for i, (w, _) in enumerate(counts.most_common())}
    print(f"vocab size {len(vocab) + 2}, train {len(train_rows)}, val {len(val_rows)}")

    train_dl = DataLoader(ChatDataset(train_rows, vocab), batch_size=32, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(ChatDataset(val_rows, vocab), batch_size=64, collate_fn=collate)
    model = IntentGRU(len(vocab) + 2, len(INTENTS))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(5):
        model.train()
        for step, (ids, y) in enumerate(train_dl):
            loss = F.cross_entropy(model(ids), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 40 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        model.eval()
        correct = 0
        with torch.no_grad():
            for ids, y in val_dl:
                correct += (model(ids).argmax(-1) == y).sum().item()
        print(f"epoch {epoch} val_acc {correct / len(val_rows):.3f}")


if __name__ == "__main__":
    main()
