"""Binary fraud classifier on transaction features (MLP)."""
import math
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SEED = 1
EPOCHS = 15
BATCH = 256
LR = 3e-4
N_FEAT = 24


def make_data(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, N_FEAT)).astype(np.float32)
    w = rng.normal(size=N_FEAT).astype(np.float32)
    score = X @ w + 0.5 * X[:, 0] * X[:, 1]
    y = (score > np.quantile(score, 0.9)).astype(np.float32)   # ~10% positives
    flip = rng.random(n) < 0.03
    y[flip] = 1 - y[flip]
    return X, y


class FraudNet(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d, 256), nn.ReLU(),
            nn.Linear(256, 256), nn.ReLU(),
            nn.Linear(256, 1),
        )

    def forward(self, x):
        return torch.sigmoid(self.net(x)).squeeze(-1)


def bce(p, y, pos_weight=4.0):
    # weighted BCE so the minority class counts more
    loss = -(pos_weight * y * torch.log(p) + (1 - y) * torch.log(1 - p))
    return loss.mean()


def evaluate(model, dl):
    model.eval()
    tp = fp = fn = 0
    with torch.no_grad():
        for x, y in dl:
            pred = (model(x) > 0.5).float()
            tp += ((pred == 1) & (y == 1)).sum().item()
            fp += ((pred == 1) & (y == 0)).sum().item()
            fn += ((pred == 0) & (y == 1)).sum().item()
    prec = tp / max(tp + fp, 1)
    rec = tp / max(tp + fn, 1)
    return prec, rec


def main():
    torch.manual_seed(SEED)
    X, y = make_data(60_000, SEED)
    mu, sd = X[:50_000].mean(0), X[:50_000].std(0)
    X = (X - mu) / sd
    train_dl = DataLoader(TensorDataset(torch.from_numpy(X[:50_000]), torch.from_numpy(y[:50_000])),
                          batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(X[50_000:]), torch.from_numpy(y[50_000:])),
                        batch_size=2048)

    model = FraudNet(N_FEAT)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-4)
    step = 0
    for epoch in range(EPOCHS):
        model.train()
        t0, running = time.time(), 0.0
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = bce(model(xb), yb)
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            running += loss.item()
            step += 1
            if step % 100 == 0:
                print(f"step {step:5d} loss {loss.item():.4f} grad_norm {gn.item():.3f}")
            if math.isnan(loss.item()):
                print(f"NaN loss at epoch {epoch} step {step}, stopping")
                return
        prec, rec = evaluate(model, val_dl)
        print(f"epoch {epoch} mean_loss {running / len(train_dl):.4f} val_precision {prec:.3f} "
              f"val_recall {rec:.3f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
