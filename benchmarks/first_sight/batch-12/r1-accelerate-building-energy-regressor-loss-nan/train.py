"""Hourly building energy regressor (kWh) from the BMS sensor export.

accelerate launch train.py   # same script on the laptop and on the 4-GPU box
"""
import csv
import os
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader, random_split
from accelerate import Accelerator
from accelerate.utils import set_seed

set_seed(0)
CSV = "bms_export.csv"
COLS = ["outdoor_temp", "indoor_temp", "humidity", "occupancy", "solar_w_m2", "hour", "weekday"]


def write_fake_export(path, n=20000, seed=0):
    """Stand-in for the nightly BMS export (same columns)."""
    rng = np.random.default_rng(seed)
    out_t = rng.normal(12, 8, n); in_t = rng.normal(21, 1.5, n); hum = rng.uniform(20, 90, n)
    occ = rng.poisson(40, n); sol = np.clip(rng.normal(200, 180, n), 0, None)
    hour = rng.integers(0, 24, n); wd = rng.integers(0, 7, n)
    kwh = 50 + 2.5 * np.abs(out_t - 18) + 0.6 * occ - 0.02 * sol + 3 * (wd < 5) + rng.normal(0, 4, n)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLS + ["kwh"])
        for i in range(n):
            row = [f"{out_t[i]:.2f}", f"{in_t[i]:.2f}", f"{hum[i]:.1f}", occ[i], f"{sol[i]:.1f}", hour[i], wd[i], f"{kwh[i]:.2f}"]
            if rng.random() < 0.0002:
                row[rng.integers(0, 5)] = ""
            w.writerow(row)


class EnergyData(Dataset):
    def __init__(self, path):
        raw = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=np.float32)
        X, y = raw[:, :-1], raw[:, -1:]
        self.mean, self.std = np.nanmean(X, 0), np.nanstd(X, 0)
        self.X = torch.from_numpy((X - self.mean) / self.std)
        self.y = torch.from_numpy((y - y.mean()) / y.std())

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


def main():
    accelerator = Accelerator()
    if accelerator.is_main_process and not os.path.exists(CSV):
        write_fake_export(CSV)
    accelerator.wait_for_everyone()

    ds = EnergyData(CSV)
    train_ds, val_ds = random_split(ds, [16000, len(ds) - 16000], generator=torch.Generator().manual_seed(0))
    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)
    accelerator.print(f"rows: {len(ds)}  features: {ds.X.shape[1]}  train/val: {len(train_ds)}/{len(val_ds)}")

    model = nn.Sequential(nn.Linear(len(COLS), 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)
    loss_fn = nn.MSELoss()

    for epoch in range(3):
        model.train()
        for step, (xb, yb) in enumerate(train_dl):
            loss = loss_fn(model(xb), yb)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            if step % 25 == 0:
                accelerator.print(f"epoch {epoch} step {step:3d}/{len(train_dl)} train_mse {loss.item():.4f}")
        model.eval()
        se, n = 0.0, 0
        with torch.no_grad():
            for xb, yb in val_dl:
                pred = model(xb)
                pred, yb = accelerator.gather_for_metrics((pred, yb))
                se += ((pred - yb) ** 2).sum().item(); n += len(yb)
        accelerator.print(f"== epoch {epoch} val_mse {se / n:.4f}")


if __name__ == "__main__":
    main()
