import math
import random
import re
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(1)
torch.manual_seed(1)

POS = "great love excellent perfect recommend fast happy works amazing solid".split()
NEG = "broken terrible refund slow waste poor awful disappointed cheap useless".split()
NEUTRAL = "product item order delivery box price seller bought week phone".split()
STOP = {"the", "a", "it", "is", "and", "this", "was", "i", "to", "of"}


def fake_review():
    label = random.randint(0, 1)
    pool = POS if label else NEG
    n = random.randint(3, 30)
    words = [random.choice(pool) if random.random() < 0.35 else random.choice(NEUTRAL + list(STOP)) for _ in range(n)]
    text = " ".join(words)
    r = random.random()
    if r < 0.004:
        text = random.choice(["👍👍👍", "http://t.co/abc123", "!!!", "😡"])
    elif r < 0.01:
        text = "it is " + random.choice(["the", "a", "this"])
    return text, label


vocab = {"<pad>": 0, "<unk>": 1}
for w in POS + NEG + NEUTRAL:
    vocab[w] = len(vocab)


def tokenize(text, max_len=32):
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP]
    ids = [vocab.get(w, 1) for w in words][:max_len]
    return ids


class Reviews(Dataset):
    def __init__(self, n):
        self.data = [fake_review() for _ in range(n)]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        text, label = self.data[i]
        return tokenize(text), label


def collate(batch):
    L = max(1, max(len(ids) for ids, _ in batch))
    x = torch.zeros(len(batch), L, dtype=torch.long)
    for i, (ids, _) in enumerate(batch):
        x[i, : len(ids)] = torch.tensor(ids, dtype=torch.long)
    y = torch.tensor([lab for _, lab in batch])
    return x, y


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, pad):
        B, L, D = x.shape
        q, k, v = (t.view(B, L, self.h, D // self.h).transpose(1, 2) for t in self.qkv(x).chunk(3, -1))
        s = (q @ k.transpose(-1, -2)) / math.sqrt(D // self.h)
        s = s.masked_fill(pad[:, None, None, :], float("-inf"))
        a = s.softmax(-1)
        return self.o((a @ v).transpose(1, 2).reshape(B, L, D))


class Encoder(nn.Module):
    def __init__(self, vocab_size, d=64, h=4, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d, padding_idx=0)
        self.pos = nn.Embedding(64, d)
        self.attn = nn.ModuleList(Attention(d, h) for _ in range(layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(layers))
        self.ln = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.cls = nn.Linear(d, 2)

    def forward(self, ids):
        pad = ids == 0
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1)))[None]
        for attn, ln, ff in zip(self.attn, self.ln, self.ff):
            x = x + attn(ln(x), pad)
            x = x + ff(x)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.cls(pooled)


train_ds, val_ds = Reviews(8000), Reviews(1000)
train_dl = DataLoader(train_ds, batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(val_ds, batch_size=256, collate_fn=collate)
model = Encoder(len(vocab))
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
print(f"{len(train_ds)} train / {len(val_ds)} val reviews, vocab {len(vocab)}")

for epoch in range(2):
    model.train()
    for step, (x, y) in enumerate(train_dl):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 20 == 0:
            print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f}")
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in val_dl:
            correct += (model(x).argmax(-1) == y).sum().item()
    print(f"epoch {epoch} val_acc {correct / len(val_ds):.3f}")
