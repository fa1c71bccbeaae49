import math
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
np.random.seed(0)

# ---- synthetic "house price" style tabular regression -------------------
N, D = 10000, 16
X = torch.randn(N, D)
w_true = torch.randn(D) * 0.8
y = X @ w_true + 0.5 * torch.sin(3 * X[:, 0]) + 0.3 * X[:, 1] * X[:, 2] + 0.1 * torch.randn(N)
y = (y - y.mean()) / y.std()

ds = TensorDataset(X, y)
train_ds, val_ds = random_split(ds, [8000, 2000], generator=torch.Generator().manual_seed(0))
train_dl = DataLoader(train_ds, batch_size=128, shuffle=True, drop_last=True)
val_dl = DataLoader(val_ds, batch_size=512)


class MLP(nn.Module):
    def __init__(self, d_in, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


model = MLP(D)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=8 * len(train_dl))
loss_fn = nn.MSELoss()


@torch.no_grad()
def evaluate():
    model.eval()
    preds, targets = [], []
    for xb, yb in val_dl:
        preds.append(model(xb).view(-1))
        targets.append(yb)
    p, t = torch.cat(preds), torch.cat(targets)
    mse = torch.mean((p - t) ** 2).item()
    r2 = 1 - mse / torch.var(t, unbiased=False).item()
    model.train()
    return mse, r2, p.std().item()


print(f"torch {torch.__version__} | train={len(train_ds)} val={len(val_ds)} | params={sum(p.numel() for p in model.parameters())}")
t0 = time.time()
for epoch in range(8):
    running = 0.0
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running += loss.item()
    val_mse, val_r2, pred_std = evaluate()
    print(f"epoch {epoch+1:2d} | train_mse {running/len(train_dl):.4f} | val_mse {val_mse:.4f} | "
          f"val_r2 {val_r2:+.4f} | pred_std {pred_std:.4f} | lr {sched.get_last_lr()[0]:.2e}")
print(f"done in {time.time()-t0:.1f}s")
