"""Credit-default MLP on the bureau feature export, plus gradient-based feature attributions.

After training we report which bureau features the model relies on most
(mean |d output / d feature|), so the feature tensors are created with
requires_grad=True up front.
"""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_FEATURES = 48
FEATURE_NAMES = [f"bureau_f{i:02d}" for i in range(N_FEATURES)]


def load_export(n, seed):
    """Stand-in for the parquet export: standardised numeric features + default flag."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, N_FEATURES)).astype(np.float32)
    w = np.zeros(N_FEATURES, dtype=np.float32)
    w[[3, 7, 19, 30]] = [1.5, -2.0, 1.0, 0.8]
    logit = X @ w + 0.5 * X[:, 11] * X[:, 12] - 1.5
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return X, y


def main():
    torch.manual_seed(0)
    X_np, y_np = load_export(20_000, 0)
    Xv_np, yv_np = load_export(4_000, 1)
    X = torch.tensor(X_np, requires_grad=True)
    y = torch.tensor(y_np)
    X_val = torch.tensor(Xv_np, requires_grad=True)
    y_val = torch.tensor(yv_np)
    train_dl = DataLoader(TensorDataset(X, y), batch_size=256, shuffle=True)

    model = nn.Sequential(nn.Linear(N_FEATURES, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"train {len(X)} rows, val {len(X_val)} rows, {N_FEATURES} features, {len(train_dl)} batches/epoch",
          flush=True)

    for epoch in range(3):
        model.train()
        t0 = time.perf_counter()
        for step, (xb, yb) in enumerate(train_dl, 1):
            loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 20 == 0:
                el = time.perf_counter() - t0
                print(f"epoch {epoch} step {step}/{len(train_dl)} loss {loss.item():.4f} | "
                      f"{el / step * 1000:.0f} ms/step, {step * 256 / el:.0f} samples/s", flush=True)
        model.eval()
        with torch.no_grad():
            logits = model(X_val).squeeze(-1)
            vloss = F.binary_cross_entropy_with_logits(logits, y_val).item()
            acc = ((logits > 0).float() == y_val).float().mean().item()
        print(f"epoch {epoch} done in {time.perf_counter() - t0:.1f}s | val loss {vloss:.4f} acc {acc:.3f}", flush=True)

    # feature attributions on the validation rows
    model.zero_grad()
    model(X_val).sum().backward()
    attr = X_val.grad.abs().mean(0)
    top = attr.argsort(descending=True)[:5].tolist()
    print("top features:", ", ".join(f"{FEATURE_NAMES[i]} ({attr[i]:.3f})" for i in top))


if __name__ == "__main__":
    main()
