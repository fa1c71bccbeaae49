"""Churn classifier on the exported tabular features (MLP baseline)."""
import math
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SEED = 7
N_ROWS = 20000
N_FEATURES = 24
BATCH_SIZE = 256
EPOCHS = 5
LR = 1e-3


def load_features(rng):
    # stands in for the parquet export: numeric features, a few of them
    # flags / one-hot region columns, binary churn label
    x = rng.normal(size=(N_ROWS, N_FEATURES)).astype(np.float32)
    x[:, 3] = rng.exponential(50.0, size=N_ROWS)              # tenure_days
    x[:, 7] = (rng.random(N_ROWS) < 0.2).astype(np.float32)   # has_promo
    x[:, 12] = 1.0                                             # region_EU
    x[:, 19] = rng.integers(0, 5, size=N_ROWS)                # plan_tier
    w = rng.normal(size=N_FEATURES).astype(np.float32)
    w[12] = 0.0
    logits = (x - x.mean(0)) @ w * 0.3
    y = (rng.random(N_ROWS) < 1 / (1 + np.exp(-logits))).astype(np.float32)
    return x, y


def standardize(train_x, val_x):
    mean = train_x.mean(axis=0, keepdims=True)
    std = train_x.std(axis=0, keepdims=True)
    return (train_x - mean) / std, (val_x - mean) / std


class MLP(nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, 128), nn.ReLU(),
            nn.Linear(128, 64), nn.ReLU(),
            nn.Linear(64, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    x, y = load_features(rng)
    split = int(0.8 * N_ROWS)
    tr_x, va_x = standardize(x[:split], x[split:])
    tr_y, va_y = y[:split], y[split:]
    print(f"train rows={len(tr_x)} val rows={len(va_x)} features={N_FEATURES} "
          f"pos_rate={tr_y.mean():.3f}")

    train_dl = DataLoader(TensorDataset(torch.from_numpy(tr_x), torch.from_numpy(tr_y)),
                          batch_size=BATCH_SIZE, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(va_x), torch.from_numpy(va_y)),
                        batch_size=1024)

    model = MLP(N_FEATURES)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-4)
    loss_fn = nn.BCEWithLogitsLoss()

    step = 0
    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        for xb, yb in train_dl:
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step:4d} loss {loss.item():.4f} grad_norm {gnorm.item():.4f}")
            step += 1

        model.eval()
        correct, total, vloss = 0, 0, 0.0
        with torch.no_grad():
            for xb, yb in val_dl:
                out = model(xb)
                vloss += loss_fn(out, yb).item() * len(yb)
                correct += ((out > 0).float() == yb).sum().item()
                total += len(yb)
        vloss /= total
        print(f"== epoch {epoch} val_loss {vloss:.4f} val_acc {correct / total:.4f} "
              f"({time.time() - t0:.1f}s)")
        if math.isnan(vloss):
            print("WARNING: validation loss is nan")


if __name__ == "__main__":
    main()
