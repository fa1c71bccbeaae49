import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

EPOCHS = 15
BATCH_SIZE = 64
LR = 1e-3


class HousingDataset(Dataset):
    """Synthetic tabular regression: 12 numeric features -> price (standardized)."""

    def __init__(self, n, seed, stats=None):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, 12)).astype(np.float32)
        price = (3.0 * X[:, 0] - 2.0 * X[:, 1] + 1.5 * X[:, 2] * X[:, 3]
                 + np.sin(2 * X[:, 4]) + 0.3 * rng.normal(size=n)).astype(np.float32)
        if stats is None:
            stats = (price.mean(), price.std())
        self.stats = stats
        self.X = torch.from_numpy(X)
        self.y = torch.from_numpy((price - stats[0]) / stats[1])

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                                 nn.Linear(128, 1))

    def forward(self, x):
        return self.net(x)


def r2_score(pred, target):
    ss_res = ((target - pred) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1 - ss_res / ss_tot


def main():
    torch.manual_seed(0)
    train_ds = HousingDataset(8000, seed=0)
    val_ds = HousingDataset(1000, seed=1, stats=train_ds.stats)
    train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=BATCH_SIZE)

    model = Regressor()
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    criterion = nn.MSELoss()

    for epoch in range(EPOCHS):
        t0 = time.time()
        model.train()
        tr_loss = 0.0
        for x, y in train_loader:
            pred = model(x)
            loss = criterion(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tr_loss += loss.item() * len(y)
        model.eval()
        preds, targets = [], []
        with torch.no_grad():
            for x, y in val_loader:
                preds.append(model(x).view(-1))
                targets.append(y)
        preds, targets = torch.cat(preds), torch.cat(targets)
        val_mse = nn.functional.mse_loss(preds, targets).item()
        print(f"epoch {epoch:2d} | train_mse {tr_loss / len(train_ds):.4f} | val_mse {val_mse:.4f} | "
              f"val_r2 {r2_score(preds, targets).item():.4f} | pred std {preds.std().item():.4f} | "
              f"{time.time() - t0:.1f}s", flush=True)


if __name__ == "__main__":
    main()
