"""Hourly bike-rental demand model (count regression).

Predicts the number of rentals per station and hour from calendar/weather
features.  Counts are Poisson-like, so we train with a Poisson NLL.
"""
import math

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, random_split

torch.manual_seed(0)
np.random.seed(0)

N_STATIONS = 40
N_DAYS = 60


def make_export():
    """Stand-in for the CSV export of the rental system."""
    rows, counts = [], []
    station_pop = np.random.gamma(2.0, 1.0, size=N_STATIONS)
    for day in range(N_DAYS):
        weekday = day % 7
        temp = 12 + 8 * np.sin(2 * math.pi * day / 365) + np.random.randn() * 3
        rain = float(np.random.rand() < 0.25)
        for hour in range(24):
            rush = math.exp(-((hour - 8) ** 2) / 4) + math.exp(-((hour - 17.5) ** 2) / 5)
            night = 1.0 if hour < 6 else 0.0
            for st in range(N_STATIONS):
                rate = station_pop[st] * (0.3 + 6.0 * rush * (weekday < 5) + 1.5 * (weekday >= 5))
                rate *= (1 - 0.6 * rain) * (1 - 0.9 * night) * (1 + 0.03 * (temp - 12))
                counts.append(np.random.poisson(max(rate, 0.01)))
                rows.append([
                    math.sin(2 * math.pi * hour / 24), math.cos(2 * math.pi * hour / 24),
                    math.sin(2 * math.pi * weekday / 7), math.cos(2 * math.pi * weekday / 7),
                    (temp - 12) / 8, rain, night, station_pop[st],
                ])
    return np.array(rows, dtype=np.float32), np.array(counts, dtype=np.float32)


class RentalDataset(Dataset):
    def __init__(self, X, y):
        self.X = torch.from_numpy(X)
        self.y = torch.from_numpy(y)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


class DemandNet(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(self.body(x)).squeeze(-1)


def main():
    X, y = make_export()
    print(f"rows: {len(y)}  mean count: {y.mean():.2f}  max: {y.max():.0f}  zeros: {(y == 0).mean():.1%}")
    ds = RentalDataset(X, y)
    n_val = len(ds) // 10
    train_ds, val_ds = random_split(ds, [len(ds) - n_val, n_val], generator=torch.Generator().manual_seed(0))
    train_dl = DataLoader(train_ds, batch_size=256, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1024)

    model = DemandNet(X.shape[1])
    with torch.no_grad():  # start from the average demand
        model.out.bias.fill_(float(y.mean()))
    # the network predicts the expected number of rentals directly
    criterion = nn.PoissonNLLLoss(log_input=False)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(3):
        model.train()
        running = 0.0
        for step, (xb, yb) in enumerate(train_dl, 1):
            pred = model(xb)
            loss = criterion(pred, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
            if step % 25 == 0:
                print(f"epoch {epoch} step {step:4d}/{len(train_dl)}  loss {running / 25:.4f}")
                running = 0.0
        model.eval()
        with torch.no_grad():
            tot, mae, n = 0.0, 0.0, 0
            for xb, yb in val_dl:
                pred = model(xb)
                tot += criterion(pred, yb).item() * len(yb)
                mae += (pred - yb).abs().sum().item()
                n += len(yb)
        print(f"epoch {epoch} | val poisson-nll {tot / n:.4f} | val MAE {mae / n:.3f}")


if __name__ == "__main__":
    main()
