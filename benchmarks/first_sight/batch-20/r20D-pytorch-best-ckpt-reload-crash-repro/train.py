"""Fraud classifier: train with early-stopping on val balanced accuracy, then score the test set
with the best checkpoint."""
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(2)
torch.manual_seed(0)
rng = np.random.default_rng(0)
CKPT_DIR = "checkpoints"
os.makedirs(CKPT_DIR, exist_ok=True)


def make_split(n):
    x = rng.normal(size=(n, 24)).astype(np.float32)
    logit = 2.0 * x[:, 0] - 1.5 * x[:, 1] * x[:, 2] + x[:, 3] ** 2 - 4.0
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return torch.from_numpy(x), torch.from_numpy(y)


splits = {k: make_split(n) for k, n in [("train", 40000), ("val", 8000), ("test", 8000)]}
print({k: f"{len(v[1])} rows, {v[1].float().mean():.3%} positive" for k, v in splits.items()})
loaders = {k: DataLoader(TensorDataset(*v), batch_size=512, shuffle=(k == "train")) for k, v in splits.items()}

model = nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
class_weight = torch.tensor([1.0, 5.0])


@torch.no_grad()
def evaluate(loader):
    model.eval()
    preds, labels = [], []
    for x, y in loader:
        preds.append(model(x).argmax(1).numpy())
        labels.append(y.numpy())
    model.train()
    preds, labels = np.concatenate(preds), np.concatenate(labels)
    recalls = [np.mean(preds[labels == c] == c) for c in (0, 1)]
    precision = np.sum((preds == 1) & (labels == 1)) / max(np.sum(preds == 1), 1)
    return {"balanced_acc": np.mean(recalls), "recall_pos": recalls[1], "precision_pos": precision}


best, patience, bad_epochs = -1.0, 3, 0
for epoch in range(15):
    t0 = time.time()
    total = 0.0
    for x, y in loaders["train"]:
        loss = F.cross_entropy(model(x), y, weight=class_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    metrics = evaluate(loaders["val"])
    print(f"epoch {epoch:2d} | loss {total / len(loaders['train']):.4f} | val balanced_acc "
          f"{metrics['balanced_acc']:.4f} recall+ {metrics['recall_pos']:.4f} precision+ "
          f"{metrics['precision_pos']:.4f} | {time.time() - t0:.1f}s", flush=True)
    if metrics["balanced_acc"] > best:
        best, bad_epochs = metrics["balanced_acc"], 0
        torch.save({"epoch": epoch, "model": model.state_dict(), "optimizer": opt.state_dict(),
                    "metrics": metrics}, os.path.join(CKPT_DIR, "best.pt"))
        print(f"  new best, saved {CKPT_DIR}/best.pt", flush=True)
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print(f"early stopping at epoch {epoch}", flush=True)
            break

ckpt = torch.load(os.path.join(CKPT_DIR, "best.pt"))
model.load_state_dict(ckpt["model"])
print(f"loaded best checkpoint from epoch {ckpt['epoch']} (val balanced_acc {ckpt['metrics']['balanced_acc']:.4f})")
test = evaluate(loaders["test"])
print(f"TEST balanced_acc {test['balanced_acc']:.4f} recall+ {test['recall_pos']:.4f} "
      f"precision+ {test['precision_pos']:.4f}")
