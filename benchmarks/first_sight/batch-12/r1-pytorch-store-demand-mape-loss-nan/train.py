"""Daily demand forecaster for store/SKU pairs.

Predicts next-day units sold from the last 14 days of sales plus calendar
features. We report MAPE to the business, so we train on MAPE directly.
"""
import math
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

torch.manual_seed(0)
rng = np.random.default_rng(0)

LOOKBACK = 14
N_SERIES = 60
N_DAYS = 220


def make_sales():
    """Synthetic export: one row per series, one column per day."""
    base = rng.gamma(2.0, 6.0, size=(N_SERIES, 1))
    dow = 1.0 + 0.3 * np.sin(2 * np.pi * np.arange(N_DAYS) / 7)[None, :]
    lam = base * dow
    sales = rng.poisson(lam).astype(np.float32)
    return sales


class DemandWindows(Dataset):
    def __init__(self, sales, days):
        self.items = []
        for s in range(sales.shape[0]):
            for d in days:
                hist = sales[s, d - LOOKBACK:d]
                dow = np.eye(7, dtype=np.float32)[d % 7]
                x = np.concatenate([np.log1p(hist), dow])
                self.items.append((x, sales[s, d]))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        x, y = self.items[i]
        return torch.from_numpy(x), torch.tensor(y, dtype=torch.float32)


class Forecaster(nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, 64), nn.ReLU(),
            nn.Linear(64, 64), nn.ReLU(),
            nn.Linear(64, 1),
        )

    def forward(self, x):
        # predict log-units, return units
        return torch.expm1(self.net(x).squeeze(-1)).clamp(min=0)


def mape_loss(pred, target):
    # skip days with zero sales (MAPE undefined there)
    ape = torch.where(target > 0,
                      (pred - target).abs() / target,
                      torch.zeros_like(target))
    return ape.sum() / (target > 0).sum().clamp(min=1)


def main():
    sales = make_sales()
    print(f"sales matrix {sales.shape}, zero-sale days: {(sales == 0).mean():.1%}")
    train_ds = DemandWindows(sales, range(LOOKBACK, 180))
    val_ds = DemandWindows(sales, range(180, N_DAYS))
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)
    print(f"train windows: {len(train_ds)}  val windows: {len(val_ds)}")

    model = Forecaster(LOOKBACK + 7)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    step = 0
    for epoch in range(3):
        model.train()
        for x, y in train_dl:
            pred = model(x)
            loss = mape_loss(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step:4d}  train_mape {loss.item():.4f}")
            step += 1

        model.eval()
        tot, n = 0.0, 0
        with torch.no_grad():
            for x, y in val_dl:
                pred = model(x)
                m = y > 0
                tot += ((pred[m] - y[m]).abs() / y[m]).sum().item()
                n += m.sum().item()
        print(f"== epoch {epoch}  val_mape {tot / n:.4f}")


if __name__ == "__main__":
    main()
