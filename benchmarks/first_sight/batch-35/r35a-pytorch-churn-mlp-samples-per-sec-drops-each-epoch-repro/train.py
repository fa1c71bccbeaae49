"""Credit-card churn MLP. Metrics are mirrored to runs/<name>/metrics.json so the
team dashboard can plot the run live."""
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

RUN_DIR = "runs/churn-mlp-v3"
EPOCHS = 10
BATCH = 64
LOG_EVERY = 100


class MetricsLogger:
    def __init__(self, run_dir):
        os.makedirs(run_dir, exist_ok=True)
        self.path = os.path.join(run_dir, "metrics.json")
        self.history = []

    def log(self, **row):
        row["time"] = time.time()
        self.history.append(row)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"run": RUN_DIR, "history": self.history}, f, indent=2)
        os.replace(tmp, self.path)


def load_customers(n=32000, d=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(np.float32)
    w = rng.standard_normal(d)
    p = 1 / (1 + np.exp(-(X @ w * 0.4 + 0.5 * X[:, 0] * X[:, 1] - 1.0)))
    return torch.from_numpy(X), torch.from_numpy((rng.random(n) < p).astype(np.float32))


def main():
    torch.manual_seed(0)
    X, y = load_customers()
    Xtr, ytr, Xva, yva = X[6400:], y[6400:], X[:6400], y[:6400]
    dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=BATCH, shuffle=True)
    model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    loss_fn = nn.BCEWithLogitsLoss()
    logger = MetricsLogger(RUN_DIR)
    step = 0
    t_run = time.time()
    for epoch in range(EPOCHS):
        model.train()
        t_win = time.time()
        for xb, yb in dl:
            logits = model(xb).squeeze(-1)
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            acc = ((logits > 0).float() == yb).float().mean().item()
            logger.log(step=step, epoch=epoch, loss=loss.item(), acc=acc, lr=opt.param_groups[0]["lr"])
            step += 1
            if step % LOG_EVERY == 0:
                sps = LOG_EVERY * BATCH / (time.time() - t_win)
                print(f"epoch {epoch} step {step:5d} loss={loss.item():.4f} samples/s={sps:8.0f}")
                t_win = time.time()
        model.eval()
        with torch.no_grad():
            va_acc = ((model(Xva).squeeze(-1) > 0).float() == yva).float().mean().item()
        print(f"== epoch {epoch} val_acc={va_acc:.4f} elapsed={time.time() - t_run:.1f}s")
        logger.log(step=step, epoch=epoch, val_acc=va_acc)
    torch.save(model.state_dict(), os.path.join(RUN_DIR, "model.pt"))


if __name__ == "__main__":
    main()
