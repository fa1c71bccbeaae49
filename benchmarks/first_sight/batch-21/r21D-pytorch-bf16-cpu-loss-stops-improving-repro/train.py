"""Demand forecaster (next-day units from 28-day history + calendar feats), trained in bf16 on CPU.

The box is a Sapphire Rapids node (AMX-BF16), so the model runs in bfloat16 for speed.
"""
import math
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
DTYPE = torch.bfloat16


def make_series(n, seed):
    g = torch.Generator().manual_seed(seed)
    t0 = torch.rand(n, 1, generator=g) * 365
    t = t0 + torch.arange(29).float()
    level = 5 + 3 * torch.rand(n, 1, generator=g)
    weekly = 1.5 * torch.sin(2 * math.pi * t / 7)
    yearly = 2.0 * torch.sin(2 * math.pi * t / 365)
    y = level + weekly + yearly + 0.3 * torch.randn(n, 29, generator=g)
    cal = torch.stack([torch.sin(2 * math.pi * t[:, -1] / 7), torch.cos(2 * math.pi * t[:, -1] / 7)], 1)
    x = torch.cat([y[:, :28], cal], 1)
    return x, y[:, 28]


class Forecaster(nn.Module):
    def __init__(self, d_in=30, width=256):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, width), nn.LayerNorm(width), nn.GELU(),
            nn.Linear(width, width), nn.LayerNorm(width), nn.GELU(),
            nn.Linear(width, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


x_tr, y_tr = make_series(40000, 1)
x_va, y_va = make_series(5000, 2)
mu, sd = x_tr.mean(), x_tr.std()
x_tr, x_va = (x_tr - mu) / sd, (x_va - mu) / sd
y_mu, y_sd = y_tr.mean(), y_tr.std()

train_dl = DataLoader(TensorDataset(x_tr, (y_tr - y_mu) / y_sd), batch_size=256, shuffle=True)

model = Forecaster().to(DTYPE)
EPOCHS = 6
opt = torch.optim.AdamW(model.parameters(), lr=2e-5, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-5, total_steps=EPOCHS * len(train_dl))
loss_fn = nn.MSELoss()

print(f"params {sum(p.numel() for p in model.parameters()):,}, dtype {DTYPE}, "
      f"steps/epoch {len(train_dl)}")
for epoch in range(EPOCHS):
    model.train()
    t0, tot, n = time.time(), 0.0, 0
    for xb, yb in train_dl:
        pred = model(xb.to(DTYPE))
        loss = loss_fn(pred.float(), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        tot += loss.item() * len(yb)
        n += len(yb)
    model.eval()
    with torch.no_grad():
        pv = model(x_va.to(DTYPE)).float() * y_sd + y_mu
    mae = (pv - y_va).abs().mean().item()
    print(f"epoch {epoch} train_mse(norm) {tot / n:.4f} val_MAE {mae:.3f} units "
          f"lr {sched.get_last_lr()[0]:.1e} ({time.time() - t0:.1f}s)")

naive = (x_va[:, 27] * sd + mu - y_va).abs().mean().item()
print(f"baseline (repeat last day) val_MAE {naive:.3f} units")
