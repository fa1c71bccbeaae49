"""Predict next-quarter customer spend from order history (MLP regressor).
Monetary / count features are heavy-tailed, so they are log-transformed."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(7)

COLUMNS = ["orders_90d", "revenue_90d", "avg_basket", "days_since_last", "tenure_days", "returns_90d_rate"]


def load_customers(n=6000):
    """Stand-in for the warehouse query."""
    orders = rng.poisson(6, n) + 1
    orders[rng.choice(n, 3, replace=False)] = 0
    avg_basket = rng.lognormal(3.5, 0.6, n)
    revenue = orders * avg_basket
    days_since = rng.integers(1, 180, n)
    tenure = days_since + rng.integers(30, 2000, n)
    returns = rng.beta(1, 12, n)
    X = np.stack([orders, revenue, avg_basket, days_since, tenure, returns], 1).astype(np.float64)
    spend = np.maximum(0, 1.3 * revenue * np.exp(-days_since / 120) + rng.normal(0, 20, n))
    return X, spend


def preprocess(X):
    X = X.copy()
    for c in range(5):                     # heavy-tailed columns -> log scale
        X[:, c] = np.log(X[:, c])
    return X.astype(np.float32)


class SpendDataset(Dataset):
    def __init__(self, X, y):
        self.X = torch.from_numpy(preprocess(X))
        self.y = torch.from_numpy(np.log1p(y).astype(np.float32))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


X, y = load_customers()
split = int(0.85 * len(y))
train_ds, val_ds = SpendDataset(X[:split], y[:split]), SpendDataset(X[split:], y[split:])
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=512)
print(f"train {len(train_ds)}  val {len(val_ds)}  features {COLUMNS}")

model = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

step = 0
for epoch in range(1, 6):
    model.train()
    for xb, yb in train_loader:
        pred = model(xb).squeeze(-1)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 10 == 0:
            print(f"epoch {epoch} step {step:4d} train_mse {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        val = sum(loss_fn(model(xb).squeeze(-1), yb).item() * len(yb) for xb, yb in val_loader) / len(val_ds)
    print(f"== epoch {epoch} val_mse {val:.4f}")
