"""Click-through-rate MLP trained by random minibatch sampling over a large in-memory impression log."""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
N_ROWS, N_FEAT = 2_500_000, 32
BATCH, STEPS, LOG_EVERY, LR = 512, 400, 50, 2e-3


def load_impressions(n):
    rng = np.random.default_rng(42)
    X = rng.standard_normal((n, N_FEAT), dtype=np.float32)
    w = rng.standard_normal(N_FEAT).astype(np.float32) / np.sqrt(N_FEAT)
    logit = X @ w + 0.8 * X[:, 0] * X[:, 1] - 2.0
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return X, y


t_load = time.time()
X, y = load_impressions(N_ROWS)
n_val = 50_000
X_val, y_val = torch.from_numpy(X[-n_val:]), torch.from_numpy(y[-n_val:])
X_tr, y_tr = X[:-n_val], y[:-n_val]
n_train = len(X_tr)
print(f"loaded {N_ROWS:,} impressions ({X.nbytes / 2**20:.0f} MiB) in {time.time() - t_load:.1f}s, "
      f"ctr {y.mean():.3f}")

model = nn.Sequential(nn.Linear(N_FEAT, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))
opt = torch.optim.Adam(model.parameters(), lr=LR)


def sample_batch():
    idx = np.random.choice(n_train, BATCH, replace=False)
    return torch.from_numpy(X_tr[idx]), torch.from_numpy(y_tr[idx])


t0 = time.time()
run_loss = 0.0
for step in range(1, STEPS + 1):
    xb, yb = sample_batch()
    loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    run_loss += loss.item()
    if step % LOG_EVERY == 0:
        elapsed = time.time() - t0
        with torch.no_grad():
            val_loss = F.binary_cross_entropy_with_logits(model(X_val).squeeze(1), y_val).item()
        print(f"step {step:4d} train_loss {run_loss / LOG_EVERY:.4f} val_loss {val_loss:.4f} "
              f"| {step / elapsed:.1f} it/s, {step * BATCH / elapsed:,.0f} samples/s")
        run_loss = 0.0
print(f"total train time {time.time() - t0:.1f}s for {STEPS} steps")
