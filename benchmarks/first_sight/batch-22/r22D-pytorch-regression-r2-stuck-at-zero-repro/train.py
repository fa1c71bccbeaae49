"""Predict delivery time (minutes) from order features with a small MLP."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def synth_orders(n, seed):
    rng = np.random.default_rng(seed)
    dist_km = rng.gamma(2.0, 2.5, n)
    n_items = rng.integers(1, 15, n)
    hour = rng.integers(0, 24, n)
    rain = rng.random(n) < 0.2
    courier_load = rng.poisson(3, n)
    rush = ((hour >= 11) & (hour <= 13)) | ((hour >= 18) & (hour <= 20))
    minutes = (12 + 4.0 * dist_km + 0.8 * n_items + 7 * rush + 9 * rain + 2.5 * courier_load
               + rng.normal(0, 3, n))
    X = np.stack([dist_km, n_items, np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24),
                  rain, courier_load], 1).astype(np.float32)
    return X, minutes.astype(np.float32)


class Orders(Dataset):
    def __init__(self, X, y, x_stats, y_stats):
        self.X = torch.from_numpy((X - x_stats[0]) / x_stats[1])
        self.y = torch.from_numpy((y - y_stats[0]) / y_stats[1])

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


def r2_and_mae(model, loader, y_stats):
    model.eval()
    preds, targets = [], []
    with torch.no_grad():
        for xb, yb in loader:
            preds.append(model(xb).squeeze(-1))
            targets.append(yb)
    model.train()
    p = torch.cat(preds).numpy() * y_stats[1] + y_stats[0]
    t = torch.cat(targets).numpy() * y_stats[1] + y_stats[0]
    r2 = 1 - ((p - t) ** 2).sum() / ((t - t.mean()) ** 2).sum()
    return r2, np.abs(p - t).mean(), p.std()


def main():
    torch.manual_seed(0)
    Xtr, ytr = synth_orders(40000, 0)
    Xva, yva = synth_orders(8000, 1)
    x_stats = (Xtr.mean(0), Xtr.std(0))
    y_stats = (ytr.mean(), ytr.std())
    train_dl = DataLoader(Orders(Xtr, ytr, x_stats, y_stats), batch_size=128, shuffle=True)
    val_dl = DataLoader(Orders(Xva, yva, x_stats, y_stats), batch_size=1024)
    print(f"train {len(Xtr)} val {len(Xva)}; target mean {y_stats[0]:.1f} min, std {y_stats[1]:.1f} min")

    model = nn.Sequential(nn.Linear(6, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    criterion = nn.MSELoss()

    for epoch in range(10):
        t0, total, n = time.time(), 0.0, 0
        for xb, yb in train_dl:
            pred = model(xb)
            loss = criterion(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
            n += len(yb)
        sched.step()
        r2, mae, pred_std = r2_and_mae(model, val_dl, y_stats)
        print(f"epoch {epoch} train_mse {total / n:.4f} val_r2 {r2:.4f} val_mae {mae:.2f} min "
              f"pred_std {pred_std:.2f} min ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
