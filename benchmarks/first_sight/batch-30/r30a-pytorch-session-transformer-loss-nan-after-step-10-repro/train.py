"""Churn prediction from app clickstream sessions with a small pre-norm transformer."""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

SEED, N_EVENTS, MAX_LEN, D, HEADS, LAYERS = 0, 400, 64, 128, 4, 2
BATCH, EPOCHS, LR = 64, 1, 3e-4
PAD = 0


def make_sessions(n, rng):
    """Sessions are the last 64 events of each user."""
    lengths = np.full(n, MAX_LEN)
    new_users = rng.choice(n, size=n // 1000, replace=False)
    lengths[new_users] = rng.integers(5, MAX_LEN, size=len(new_users))
    ids = np.zeros((n, MAX_LEN), dtype=np.int64)
    y = np.zeros(n, dtype=np.float32)
    churn_events = np.arange(1, 21)
    for i, L in enumerate(lengths):
        p_churn = rng.random() < 0.3
        probs = np.ones(N_EVENTS - 1)
        if p_churn:
            probs[churn_events - 1] *= 8.0
        probs /= probs.sum()
        ids[i, :L] = rng.choice(np.arange(1, N_EVENTS), size=L, p=probs)
        y[i] = float(p_churn)
    return torch.from_numpy(ids), torch.from_numpy(y)


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.n1, self.n2 = RMSNorm(D), RMSNorm(D)
        self.attn = nn.MultiheadAttention(D, HEADS, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x, pad_mask):
        h = self.n1(x)
        x = x + self.attn(h, h, h, key_padding_mask=pad_mask, need_weights=False)[0]
        return x + self.mlp(self.n2(x))


class SessionEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(N_EVENTS, D, padding_idx=PAD)
        self.pos = nn.Embedding(MAX_LEN, D)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = RMSNorm(D)
        self.head = nn.Linear(D, 1)

    def forward(self, ids):
        keep = (ids != PAD)
        x = self.tok(ids) + self.pos(torch.arange(ids.shape[1]))
        x = x * keep.unsqueeze(-1)
        for blk in self.blocks:
            x = blk(x, ~keep)
        x = self.norm(x)
        pooled = (x * keep.unsqueeze(-1)).sum(1) / keep.sum(1, keepdim=True)
        return self.head(pooled).squeeze(-1)


def main():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    X, y = make_sessions(12000, rng)
    n_tr = 10000
    train = DataLoader(TensorDataset(X[:n_tr], y[:n_tr]), batch_size=BATCH, shuffle=True)
    val = DataLoader(TensorDataset(X[n_tr:], y[n_tr:]), batch_size=256)
    model = SessionEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    print(f"torch {torch.__version__} | train {n_tr} sessions, {len(train)} steps/epoch")

    step, t0 = 0, time.time()
    for epoch in range(EPOCHS):
        model.train()
        for ids, yb in train:
            loss = F.binary_cross_entropy_with_logits(model(ids), yb)
            opt.zero_grad()
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            if step % 10 == 0:
                print(f"epoch {epoch} step {step:4d} | loss {loss.item():.4f} | grad_norm {gnorm.item():.3f} | {time.time() - t0:.1f}s")
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for ids, yb in val:
                correct += ((model(ids) > 0).float() == yb).sum().item()
                total += len(yb)
        print(f"== epoch {epoch} val acc {correct / total:.4f}")


if __name__ == "__main__":
    main()
