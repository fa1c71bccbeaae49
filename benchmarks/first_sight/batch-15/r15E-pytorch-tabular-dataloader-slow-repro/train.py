import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

rng = np.random.default_rng(0)
N_FEATURES = 48


def make_sensor_table(n):
    X = rng.normal(loc=rng.uniform(-50, 50, N_FEATURES), scale=rng.uniform(1, 20, N_FEATURES),
                   size=(n, N_FEATURES)).astype(np.float32)
    w = rng.normal(size=N_FEATURES)
    z = ((X - X.mean(0)) / X.std(0)) @ w
    y = (z + rng.normal(scale=0.5, size=n) > 0).astype(np.int64)
    return X, y


class SensorDataset(Dataset):
    def __init__(self, X, y):
        self.X = X
        self.y = y

    def __len__(self):
        return len(self.X)

    def __getitem__(self, idx):
        x = (self.X[idx] - self.X.mean(axis=0)) / (self.X.std(axis=0) + 1e-6)
        return torch.from_numpy(x), torch.tensor(self.y[idx])


def main():
    X, y = make_sensor_table(60000)
    split = 50000
    train_ds = SensorDataset(X[:split], y[:split])
    val_ds = SensorDataset(X[split:], y[split:])
    train_loader = DataLoader(train_ds, batch_size=256, shuffle=True, num_workers=2)
    val_loader = DataLoader(val_ds, batch_size=1024, num_workers=2)

    model = nn.Sequential(nn.Linear(N_FEATURES, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                          nn.Linear(256, 2))
    optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    print(f"train={len(train_ds)} val={len(val_ds)} batches/epoch={len(train_loader)}")

    for epoch in range(1):
        model.train()
        t0 = time.time()
        seen = 0
        for i, (xb, yb) in enumerate(train_loader, 1):
            loss = loss_fn(model(xb), yb)
            optim.zero_grad()
            loss.backward()
            optim.step()
            seen += len(xb)
            if i % 20 == 0:
                el = time.time() - t0
                print(f"epoch {epoch} it {i}/{len(train_loader)} loss {loss.item():.4f} "
                      f"{seen/el:.0f} samples/s", flush=True)
            if i == 80:
                break
        el = time.time() - t0
        print(f"{i} iterations in {el:.1f}s -> {seen/el:.0f} samples/s, "
              f"projected epoch time {el/i*len(train_loader):.0f}s")


if __name__ == "__main__":
    main()
