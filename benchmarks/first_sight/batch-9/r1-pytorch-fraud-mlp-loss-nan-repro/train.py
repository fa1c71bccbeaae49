"""Transaction fraud model: streaming feature normalisation + small MLP."""
import math
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SEED = 7
N_ROWS = 20_000
BATCH = 128
EPOCHS = 3
LR = 1e-3

torch.manual_seed(SEED)
rng = np.random.default_rng(SEED)


def load_transactions(n):
    # event_ts: unix seconds over the 30-day export window
    start = 1_700_000_000
    event_ts = start + rng.uniform(0, 30 * 86400, n)
    amount = rng.lognormal(3.0, 1.2, n)
    n_items = rng.poisson(2.0, n) + 1
    hour = (event_ts // 3600) % 24
    account_age_days = rng.exponential(400, n)
    is_foreign = rng.random(n) < 0.08
    logit = (0.9 * np.log(amount) - 0.004 * account_age_days + 2.0 * is_foreign
             + 0.6 * ((hour < 5) | (hour > 22)) - 3.0)
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    X = np.stack([event_ts, amount, n_items, hour, account_age_days, is_foreign], 1)
    return torch.tensor(X, dtype=torch.float32), torch.tensor(y)


class RunningStandardizer(nn.Module):
    """Keeps running feature statistics so we never need a separate pass over the data."""

    def __init__(self, n_features, eps=1e-8):
        super().__init__()
        self.eps = eps
        self.register_buffer("count", torch.zeros(()))
        self.register_buffer("sum", torch.zeros(n_features))
        self.register_buffer("sumsq", torch.zeros(n_features))

    @torch.no_grad()
    def update(self, x):
        self.count += x.shape[0]
        self.sum += x.sum(0)
        self.sumsq += (x * x).sum(0)

    def forward(self, x):
        if self.training:
            self.update(x)
        mean = self.sum / self.count
        var = self.sumsq / self.count - mean * mean
        return (x - mean) / torch.sqrt(var + self.eps)


class FraudNet(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.norm = RunningStandardizer(n_features)
        self.mlp = nn.Sequential(
            nn.Linear(n_features, 64), nn.ReLU(),
            nn.Linear(64, 64), nn.ReLU(),
            nn.Linear(64, 1),
        )

    def forward(self, x):
        return self.mlp(self.norm(x)).squeeze(-1)


def main():
    X, y = load_transactions(N_ROWS)
    n_val = 2_000
    train_ds = TensorDataset(X[n_val:], y[n_val:])
    val_ds = TensorDataset(X[:n_val], y[:n_val])
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = FraudNet(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    crit = nn.BCEWithLogitsLoss()
    print(f"train rows={len(train_ds)} val rows={len(val_ds)} fraud rate={y.mean():.3f}")

    step = 0
    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        run = 0.0
        for xb, yb in train_dl:
            logits = model(xb)
            loss = crit(logits, yb)
            opt.zero_grad()
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            step += 1
            run += loss.item()
            if step % 20 == 0 or not math.isfinite(loss.item()):
                print(f"epoch {epoch} step {step:4d} loss {loss.item():.4f} grad_norm {gn.item():.3f}")
            if not math.isfinite(loss.item()):
                print(f"non-finite loss at step {step}, stopping")
                return
        model.eval()
        correct = tot = 0
        vloss = 0.0
        with torch.no_grad():
            for xb, yb in val_dl:
                lo = model(xb)
                vloss += crit(lo, yb).item() * len(yb)
                correct += ((lo > 0).float() == yb).sum().item()
                tot += len(yb)
        print(f"== epoch {epoch} train_loss {run / len(train_dl):.4f} val_loss {vloss / tot:.4f} "
              f"val_acc {correct / tot:.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
