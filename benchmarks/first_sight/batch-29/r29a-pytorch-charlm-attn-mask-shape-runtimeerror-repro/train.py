"""Tiny character-level transformer LM on synthetic "log line" text."""
import math
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

SERVICES = ["auth", "billing", "search", "gateway", "cache", "worker"]
LEVELS = ["INFO", "WARN", "ERROR", "DEBUG"]


def make_corpus(n_lines=4000):
    lines = []
    for _ in range(n_lines):
        svc = random.choice(SERVICES)
        lvl = random.choice(LEVELS)
        ms = random.randint(1, 999)
        lines.append(f"{lvl} {svc} request handled in {ms}ms\n")
    return "".join(lines)


text = make_corpus()
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
n_train = int(0.9 * len(data))
train_data, val_data = data[:n_train], data[n_train:]

BLOCK = 64
BATCH = 24
D_MODEL = 128
N_HEAD = 4
N_LAYER = 3
STEPS = 300


def get_batch(split):
    src = train_data if split == "train" else val_data
    ix = torch.randint(len(src) - BLOCK - 1, (BATCH,))
    x = torch.stack([src[i:i + BLOCK] for i in ix])
    y = torch.stack([src[i + 1:i + BLOCK + 1] for i in ix])
    return x, y


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, h, dropout=0.1)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        h = self.ln1(x)
        a, _ = self.attn(h, h, h, attn_mask=mask, need_weights=False)
        x = x + a
        x = x + self.mlp(self.ln2(x))
        return x


class CharLM(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.tok = nn.Embedding(vocab, D_MODEL)
        self.pos = nn.Embedding(BLOCK, D_MODEL)
        self.blocks = nn.ModuleList([Block(D_MODEL, N_HEAD) for _ in range(N_LAYER)])
        self.ln_f = nn.LayerNorm(D_MODEL)
        self.head = nn.Linear(D_MODEL, vocab)

    def forward(self, idx):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T))
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(self.ln_f(x))


model = CharLM(len(chars))
print(f"vocab={len(chars)} params={sum(p.numel() for p in model.parameters())/1e6:.2f}M "
      f"train_tokens={len(train_data)}")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)


@torch.no_grad()
def evaluate():
    model.eval()
    losses = []
    for _ in range(10):
        x, y = get_batch("val")
        logits = model(x)
        losses.append(F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1)).item())
    model.train()
    return sum(losses) / len(losses)


t0 = time.time()
for step in range(STEPS + 1):
    x, y = get_batch("train")
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 50 == 0:
        val = evaluate()
        print(f"step {step:4d} | train loss {loss.item():.4f} | val loss {val:.4f} "
              f"| val ppl {math.exp(val):.2f} | {time.time() - t0:.1f}s")
print("done")
