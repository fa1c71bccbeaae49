"""Apartment rent regressor (accelerate training loop).

Columns from listings export: area_m2, rooms, floor, year_built, dist_center_m, has_balcony.
Target: monthly rent in EUR (scaled to thousands).
"""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(2)
rng = np.random.default_rng(0)


def load_listings(n):
    area = rng.uniform(20, 160, n)
    rooms = np.clip(np.round(area / 25 + rng.normal(0, 0.7, n)), 1, 7)
    floor = rng.integers(0, 25, n)
    year = rng.integers(1950, 2024, n)
    dist = rng.uniform(200, 18000, n)
    balcony = (rng.random(n) < 0.4).astype(float)
    rent = (350 + 11.0 * area + 40 * rooms + 6 * floor + 3.0 * (year - 1950)
            - 0.035 * dist + 60 * balcony + rng.normal(0, 80, n))
    X = np.stack([area, rooms, floor, year, dist, balcony], axis=1).astype(np.float32)
    y = (rent / 1000.0).astype(np.float32)[:, None]
    return torch.from_numpy(X), torch.from_numpy(y)


X, y = load_listings(6000)
Xtr, ytr, Xva, yva = X[:5000], y[:5000], X[5000:], y[5000:]

model = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=1e-7, momentum=0.9)  # 1e-3 .. 1e-6 all went to nan
loss_fn = nn.MSELoss()

accelerator = Accelerator(cpu=True)
train_dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=64, shuffle=True)
val_dl = DataLoader(TensorDataset(Xva, yva), batch_size=500)
model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)

step = 0
for epoch in range(1, 9):
    model.train()
    for xb, yb in train_dl:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        accelerator.backward(loss)
        opt.step()
        step += 1
        if (epoch == 1 and (step <= 6 or step % 4 == 0)) or step % 40 == 0:
            accelerator.print(f"epoch {epoch} step {step:4d}  train_mse {loss.item():.6g}")
    model.eval()
    with torch.no_grad():
        mse = sum(loss_fn(model(xb), yb).item() * len(xb) for xb, yb in val_dl) / len(Xva)
    accelerator.print(f"== epoch {epoch}  val_mse {mse:.6g}  (val RMSE {1000 * mse ** 0.5:.1f} EUR)")
