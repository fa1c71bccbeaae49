"""Churn classifier on tabular features (synthetic export of the CRM table)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

FEATURES = ["tenure", "monthly_spend", "support_calls", "plan_tier",
            "region_code", "is_legacy_plan", "num_devices", "late_payments"]


def load_table(n=20000):
    tenure = rng.gamma(2.0, 12.0, n)
    spend = rng.normal(55, 20, n).clip(5, None)
    calls = rng.poisson(1.5, n)
    tier = rng.integers(0, 3, n)
    region = rng.integers(0, 12, n)
    legacy = np.zeros(n)
    devices = rng.integers(1, 6, n)
    late = rng.poisson(0.4, n)
    X = np.stack([tenure, spend, calls, tier, region, legacy, devices, late], 1)
    logit = -0.05 * tenure + 0.02 * spend + 0.6 * calls + 0.9 * late - 1.5
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return X.astype(np.float32), y


X, y = load_table()
n_train = int(0.8 * len(X))
X_train, X_val = X[:n_train], X[n_train:]
y_train, y_val = y[:n_train], y[n_train:]

mean = X_train.mean(axis=0)
std = X_train.std(axis=0)
X_train = (X_train - mean) / std
X_val = (X_val - mean) / std

train_ds = TensorDataset(torch.from_numpy(X_train), torch.from_numpy(y_train))
val_ds = TensorDataset(torch.from_numpy(X_val), torch.from_numpy(y_val))
train_dl = DataLoader(train_ds, batch_size=256, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=1024)

model = nn.Sequential(
    nn.Linear(len(FEATURES), 64), nn.ReLU(),
    nn.Linear(64, 64), nn.ReLU(),
    nn.Linear(64, 2),
)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
loss_fn = nn.CrossEntropyLoss()

print(f"train={len(train_ds)} val={len(val_ds)} features={len(FEATURES)}")
for epoch in range(5):
    model.train()
    running, steps = 0.0, 0
    for i, (xb, yb) in enumerate(train_dl):
        logits = model(xb)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        running += loss.item()
        steps += 1
        if epoch == 0 and i < 3:
            print(f"epoch 0 step {i} loss {loss.item():.4f}")

    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for xb, yb in val_dl:
            pred = model(xb).argmax(1)
            correct += (pred == yb).sum().item()
            total += len(yb)
    print(f"epoch {epoch} train_loss {running / steps:.4f} val_acc {correct / total:.4f}")
