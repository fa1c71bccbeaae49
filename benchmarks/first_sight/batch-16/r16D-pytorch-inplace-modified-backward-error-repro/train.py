import math
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# Synthetic sensor sequences: predict whether an anomaly spike occurs in the window.
N, T, D = 4096, 48, 16
x = torch.randn(N, T, D)
lengths = torch.randint(12, T + 1, (N,))
pad = torch.arange(T)[None, :] >= lengths[:, None]          # True = padded position
y = torch.zeros(N, dtype=torch.long)
spike = torch.rand(N) < 0.5
pos = (torch.rand(N) * (lengths - 1).float()).long()
x[spike, pos[spike], :4] += 3.0
y[spike] = 1
x[pad] = 0.0

train_ds = TensorDataset(x[:3584], pad[:3584], y[:3584])
val_ds = TensorDataset(x[3584:], pad[3584:], y[3584:])
train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=256)


class MaskedSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, h, pad_mask):
        B, L, C = h.shape
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        q = q.view(B, L, self.heads, -1).transpose(1, 2)
        k = k.view(B, L, self.heads, -1).transpose(1, 2)
        v = v.view(B, L, self.heads, -1).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        attn = F.softmax(scores, dim=-1)
        attn.masked_fill_(pad_mask[:, None, None, :], 0.0)
        attn = attn / attn.sum(-1, keepdim=True).clamp_min(1e-6)
        out = (attn @ v).transpose(1, 2).reshape(B, L, C)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = MaskedSelfAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, h, pad_mask):
        h = h + self.attn(self.ln1(h), pad_mask)
        return h + self.mlp(self.ln2(h))


class SeqClassifier(nn.Module):
    def __init__(self, d_in, dim=64, heads=4, depth=2, n_cls=2):
        super().__init__()
        self.inp = nn.Linear(d_in, dim)
        self.pos = nn.Parameter(torch.zeros(1, T, dim))
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.head = nn.Linear(dim, n_cls)

    def forward(self, x, pad_mask):
        h = self.inp(x) + self.pos[:, : x.size(1)]
        for blk in self.blocks:
            h = blk(h, pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


model = SeqClassifier(D)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)


@torch.no_grad()
def evaluate():
    model.eval()
    correct = total = 0
    for xb, mb, yb in val_dl:
        pred = model(xb, mb).argmax(-1)
        correct += (pred == yb).sum().item()
        total += yb.numel()
    model.train()
    return correct / total


print(f"sanity check val acc before training: {evaluate():.3f}")
for epoch in range(5):
    t0 = time.time()
    running = 0.0
    for step, (xb, mb, yb) in enumerate(train_dl):
        logits = model(xb, mb)
        loss = F.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    print(f"epoch {epoch} loss {running / len(train_dl):.4f} val_acc {evaluate():.3f} ({time.time() - t0:.1f}s)")
