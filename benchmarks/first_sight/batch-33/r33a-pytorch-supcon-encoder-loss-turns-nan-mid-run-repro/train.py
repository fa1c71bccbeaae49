"""Supervised-contrastive pretraining of a support-ticket embedding encoder.

Input: 96-d sentence features per ticket, label = resolver team (long-tailed).
Stage 1: SupCon loss on the projection head. Stage 2: linear probe on frozen encoder.
"""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
N_CLASSES, DIM, N_TRAIN, N_VAL = 10, 96, 24000, 4000
BATCH, EPOCHS, LR, TEMP = 128, 3, 1e-3, 0.1


def make_split(n, g):
    # long-tailed team sizes: the biggest team gets ~22% of tickets, the smallest ~6%
    freq = torch.tensor([1.0 / (k + 1) ** 0.6 for k in range(N_CLASSES)])
    y = torch.multinomial(freq / freq.sum(), n, replacement=True, generator=g)
    centers = torch.randn(N_CLASSES, DIM, generator=torch.Generator().manual_seed(7)) * 1.2
    x = centers[y] + torch.randn(n, DIM, generator=g)
    return x, y


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(DIM, 256), nn.ReLU(), nn.Linear(256, 128))
        self.proj = nn.Sequential(nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 64))

    def forward(self, x):
        h = self.body(x)
        return h, F.normalize(self.proj(h), dim=1)


def supcon_loss(z, y, temperature=TEMP):
    """Supervised contrastive loss (Khosla et al. 2020)."""
    n = z.shape[0]
    sim = z @ z.T / temperature
    self_mask = torch.eye(n, dtype=torch.bool)
    sim = sim.masked_fill(self_mask, -1e9)
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    pos = (y[:, None] == y[None, :]) & ~self_mask
    mean_log_prob_pos = (log_prob * pos).sum(1) / pos.sum(1)
    return -mean_log_prob_pos.mean()


g = torch.Generator().manual_seed(0)
x_tr, y_tr = make_split(N_TRAIN, g)
x_va, y_va = make_split(N_VAL, g)
print("team sizes (train):", torch.bincount(y_tr, minlength=N_CLASSES).tolist())
train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=BATCH, shuffle=True, drop_last=True)

enc = Encoder()
opt = torch.optim.AdamW(enc.parameters(), lr=LR, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS * len(train_dl))

step = 0
for epoch in range(EPOCHS):
    t0 = time.time()
    for xb, yb in train_dl:
        _, z = enc(xb)
        loss = supcon_loss(z, yb)
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(enc.parameters(), 5.0)
        opt.step()
        sched.step()
        if step % 10 == 0:
            print(f"epoch {epoch} step {step:4d} supcon {loss.item():.4f} grad_norm {gn.item():.3f} lr {sched.get_last_lr()[0]:.2e}")
        step += 1
    print(f"epoch {epoch} done in {time.time() - t0:.1f}s")

# linear probe on frozen encoder features
enc.eval()
with torch.no_grad():
    f_tr, _ = enc(x_tr)
    f_va, _ = enc(x_va)
probe = nn.Linear(128, N_CLASSES)
popt = torch.optim.Adam(probe.parameters(), lr=1e-2)
for it in range(300):
    pl = F.cross_entropy(probe(f_tr), y_tr)
    popt.zero_grad()
    pl.backward()
    popt.step()
acc = (probe(f_va).argmax(1) == y_va).float().mean().item()
print(f"linear probe: train_ce {pl.item():.4f} val_acc {acc:.4f} (majority baseline {torch.bincount(y_va).max().item() / N_VAL:.4f})")
