"""Delivery-time regression on tabular features (plain PyTorch, CPU)."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(2)
torch.manual_seed(0)
rng = np.random.default_rng(0)

N_TRAIN, N_VAL, N_FEAT = 200_000, 120_000, 16


def synth(n):
    x = rng.normal(size=(n, N_FEAT)).astype(np.float32)
    w = np.linspace(-1.0, 1.0, N_FEAT).astype(np.float32)
    y = x @ w + 0.5 * np.sin(3 * x[:, 0]) * x[:, 1] + 0.1 * rng.normal(size=n)
    return x, y.astype(np.float32)


x_tr, y_tr = synth(N_TRAIN)
x_va, y_va = synth(N_VAL)
mu, sd = x_tr.mean(0), x_tr.std(0)
y_mu, y_sd = y_tr.mean(), y_tr.std()
x_tr, x_va = (x_tr - mu) / sd, (x_va - mu) / sd
y_tr, y_va = (y_tr - y_mu) / y_sd, (y_va - y_mu) / y_sd

train_dl = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)), batch_size=256, shuffle=True)
val_dl = DataLoader(TensorDataset(torch.from_numpy(x_va), torch.from_numpy(y_va)), batch_size=4096)
print(f"train {len(x_tr)} rows, val {len(x_va)} rows, {N_FEAT} features")


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU())
        self.head = nn.Linear(128, 1)

    def forward(self, x):
        return self.head(self.body(x))


model = Regressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.no_grad()
def evaluate():
    model.eval()
    preds, targets = [], []
    for xb, yb in val_dl:
        preds.append(model(xb))
        targets.append(yb)
    model.train()
    preds, targets = torch.cat(preds), torch.cat(targets)
    err = (preds - targets) * float(y_sd)
    rmse = err.pow(2).mean().sqrt().item()
    mae = err.abs().mean().item()
    r2 = 1 - err.pow(2).sum().item() / ((targets - targets.mean()) * float(y_sd)).pow(2).sum().item()
    return rmse, mae, r2


for epoch in range(3):
    t0 = time.time()
    total, n = 0.0, 0
    for step, (xb, yb) in enumerate(train_dl):
        pred = model(xb)
        loss = (pred - yb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        n += len(xb)
        if step % 200 == 0:
            print(f"epoch {epoch} step {step:4d} | mse {loss.item():.4f}", flush=True)
    print(f"epoch {epoch} | train_mse {total / n:.4f} | {time.time() - t0:.1f}s", flush=True)
    rmse, mae, r2 = evaluate()
    print(f"epoch {epoch} | val_rmse {rmse:.3f} val_mae {mae:.3f} val_r2 {r2:.3f}", flush=True)

torch.save(model.state_dict(), "regressor.pt")
