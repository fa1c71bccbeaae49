import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


def make_listings(n):
    """Synthetic real-estate listings: sqft, bedrooms, bathrooms, age, lot size, distance to city."""
    sqft = rng.normal(1800, 500, n).clip(400, 6000)
    beds = rng.integers(1, 6, n)
    baths = rng.integers(1, 4, n)
    age = rng.uniform(0, 80, n)
    lot = rng.lognormal(8.5, 0.5, n)
    dist = rng.uniform(1, 40, n)
    price = (120 * sqft + 15000 * beds + 20000 * baths - 900 * age + 2.0 * lot - 3500 * dist
             + 60000 + rng.normal(0, 25000, n))
    x = np.stack([sqft, beds, baths, age, lot, dist], 1).astype(np.float32)
    return x, price.astype(np.float32)


def main():
    print(f"torch {torch.__version__}")
    x, y = make_listings(12000)
    x_mean, x_std = x.mean(0), x.std(0)
    x = (x - x_mean) / x_std
    n_tr = 10000
    xtr, ytr = torch.from_numpy(x[:n_tr]), torch.from_numpy(y[:n_tr]).unsqueeze(1)
    xva, yva = torch.from_numpy(x[n_tr:]), torch.from_numpy(y[n_tr:]).unsqueeze(1)
    print(f"train {len(xtr)} val {len(xva)} | price mean {y.mean():.0f} std {y.std():.0f}")

    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    loss_fn = nn.MSELoss()

    for epoch in range(5):
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(loader):
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if epoch == 0 and step < 6:
                print(f"  step {step} loss {loss.item():.4e}")
        model.eval()
        with torch.no_grad():
            pred = model(xva)
            mae = (pred - yva).abs().mean().item()
        print(f"epoch {epoch} last batch loss {loss.item():.4e} val MAE ${mae:,.0f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
