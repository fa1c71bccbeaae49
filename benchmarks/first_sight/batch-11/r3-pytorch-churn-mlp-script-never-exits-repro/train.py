"""Churn-prediction MLP with live metric shipping.

Metrics are pushed to a background writer so the training loop never blocks on
disk / network I/O (the dashboard tails runs/<run>/metrics.jsonl).
"""
import atexit
import json
import os
import queue
import threading
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

RUN_DIR = "runs/churn-mlp"


class MetricsShipper:
    """Background thread that appends metric records to a JSONL file."""

    def __init__(self, path, flush_every=20):
        self.path = path
        self.flush_every = flush_every
        self.q = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="metrics-shipper")
        self._thread.start()
        atexit.register(self.close)  # make sure everything is flushed when the script ends

    def log(self, **record):
        record["time"] = time.time()
        self.q.put(record)

    def _run(self):
        buf = []
        with open(self.path, "a") as f:
            while not (self._stop.is_set() and self.q.empty()):
                try:
                    buf.append(self.q.get(timeout=0.5))
                except queue.Empty:
                    pass
                if len(buf) >= self.flush_every or (buf and self._stop.is_set()):
                    f.write("".join(json.dumps(r) + "\n" for r in buf))
                    f.flush()
                    buf.clear()

    def close(self):
        self._stop.set()
        self._thread.join()


def make_data(n=20000, d=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    logits = X @ w * 0.7 + 0.5 * torch.sin(X[:, 0] * 2) - 1.0
    y = (torch.rand(n, generator=g) < torch.sigmoid(logits)).float()
    return TensorDataset(X, y)


def main():
    torch.manual_seed(0)
    os.makedirs(RUN_DIR, exist_ok=True)
    shipper = MetricsShipper(os.path.join(RUN_DIR, "metrics.jsonl"))

    ds = make_data()
    train_ds, val_ds = random_split(ds, [18000, 2000], generator=torch.Generator().manual_seed(0))
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1000)

    model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    crit = nn.BCEWithLogitsLoss()

    step = 0
    for epoch in range(5):
        model.train()
        for xb, yb in train_dl:
            loss = crit(model(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            shipper.log(step=step, epoch=epoch, train_loss=loss.item())
        model.eval()
        correct = n = 0
        vloss = 0.0
        with torch.no_grad():
            for xb, yb in val_dl:
                out = model(xb).squeeze(-1)
                vloss += crit(out, yb).item() * len(yb)
                correct += ((out > 0).float() == yb).sum().item()
                n += len(yb)
        shipper.log(step=step, epoch=epoch, val_loss=vloss / n, val_acc=correct / n)
        print(f"epoch {epoch}: train loss {loss.item():.4f}  val loss {vloss / n:.4f}  val acc {correct / n:.3f}",
              flush=True)

    torch.save(model.state_dict(), os.path.join(RUN_DIR, "model.pt"))
    print(f"training finished, model saved to {RUN_DIR}/model.pt", flush=True)


if __name__ == "__main__":
    main()
