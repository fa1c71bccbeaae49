"""Land-cover classification of 64x64 satellite tiles (10 classes) with a small ViT
written from scratch (plain PyTorch)."""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

IMG, PATCH, DIM, DEPTH, HEADS, N_CLASSES = 64, 8, 96, 4, 4, 10
BATCH, EPOCHS, LR = 64, 5, 3e-4


class Tiles(Dataset):
    """Synthetic stand-in for the 13-band export reduced to RGB."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, N_CLASSES, (n,), generator=g)
        base = torch.rand(N_CLASSES, 3, 1, 1, generator=g)
        self.x = base[self.y] + 0.3 * torch.randn(n, 3, IMG, IMG, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def sincos_pos(n, dim):
    pos = torch.arange(n).unsqueeze(1)
    freq = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
    pe = torch.zeros(n, dim)
    pe[:, 0::2] = torch.sin(pos * freq)
    pe[:, 1::2] = torch.cos(pos * freq)
    return pe


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, n, d)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.n1, self.attn = nn.LayerNorm(dim), Attention(dim, heads)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.mlp(self.n2(x))


class TinyViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, DIM, kernel_size=PATCH)
        self.cls = nn.Parameter(torch.zeros(1, 1, DIM))
        self.blocks = nn.ModuleList([Block(DIM, HEADS) for _ in range(DEPTH)])
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, N_CLASSES)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)          # (B, tokens, DIM)
        x = torch.cat([self.cls.expand(len(x), -1, -1), x], dim=1)
        x = x + sincos_pos(x.shape[1], DIM).to(x)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x[:, 0]))


def main():
    torch.manual_seed(0)
    train_dl = DataLoader(Tiles(6000, 0), batch_size=BATCH, shuffle=True)
    model = TinyViT()
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.05)
    n_tokens = (IMG // PATCH) ** 2 + 1
    print(f"torch {torch.__version__} | ViT params {sum(p.numel() for p in model.parameters()):,} | "
          f"{IMG}x{IMG} tiles, patch {PATCH} -> {n_tokens} tokens, batch {BATCH}", flush=True)
    for epoch in range(EPOCHS):
        t0, correct, seen = time.time(), 0, 0
        for step, (x, y) in enumerate(train_dl):
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
            seen += len(y)
            if step % 20 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        print(f"epoch {epoch}: train acc {correct / seen:.3f} ({time.time() - t0:.1f}s)", flush=True)


if __name__ == "__main__":
    main()
