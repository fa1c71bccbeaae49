"""Ticket-severity classifier on pre-computed sentence embeddings.

The severity classes are very imbalanced (most tickets are "low"), so v2 of this
script rebalances the training batches with a WeightedRandomSampler.
"""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

torch.manual_seed(0)
rng = np.random.default_rng(0)

CLASSES = ["low", "medium", "high", "critical"]
PRIORS = [0.70, 0.20, 0.07, 0.03]
DIM = 64
N_TRAIN, N_VAL = 12000, 3000
EPOCHS = 8
BATCH = 128


def make_split(n):
    """Synthetic stand-in for the embedding export: one gaussian blob per class."""
    centers = np.random.default_rng(123).normal(0, 1.0, size=(len(CLASSES), DIM))
    y = rng.choice(len(CLASSES), size=n, p=PRIORS)
    x = centers[y] + rng.normal(0, 2.2, size=(n, DIM))
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.long)


x_tr, y_tr = make_split(N_TRAIN)
x_va, y_va = make_split(N_VAL)
train_ds = TensorDataset(x_tr, y_tr)
val_ds = TensorDataset(x_va, y_va)

counts = torch.bincount(y_tr, minlength=len(CLASSES)).float()
print("train class counts:", dict(zip(CLASSES, counts.int().tolist())))

# rebalance: rare classes are drawn as often as frequent ones
class_weights = 1.0 / counts
sampler = WeightedRandomSampler(weights=class_weights, num_samples=len(train_ds), replacement=True)

train_loader = DataLoader(train_ds, batch_size=BATCH, sampler=sampler)
val_loader = DataLoader(val_ds, batch_size=512)

model = nn.Sequential(
    nn.Linear(DIM, 128), nn.ReLU(), nn.Dropout(0.1),
    nn.Linear(128, 64), nn.ReLU(),
    nn.Linear(64, len(CLASSES)),
)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
criterion = nn.CrossEntropyLoss()


def evaluate(loader):
    model.eval()
    preds, gold = [], []
    with torch.no_grad():
        for xb, yb in loader:
            preds.append(model(xb).argmax(1))
            gold.append(yb)
    preds, gold = torch.cat(preds), torch.cat(gold)
    acc = (preds == gold).float().mean().item()
    f1s = []
    for c in range(len(CLASSES)):
        tp = ((preds == c) & (gold == c)).sum().item()
        fp = ((preds == c) & (gold != c)).sum().item()
        fn = ((preds != c) & (gold == c)).sum().item()
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return acc, float(np.mean(f1s)), f1s


for epoch in range(1, EPOCHS + 1):
    model.train()
    t0 = time.time()
    tot, correct, n = 0.0, 0, 0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        tot += loss.item() * len(yb)
        correct += (logits.argmax(1) == yb).sum().item()
        n += len(yb)
    val_acc, val_f1, per_class = evaluate(val_loader)
    print(f"epoch {epoch} | train_loss {tot / n:.4f} train_acc {correct / n:.3f} | "
          f"val_acc {val_acc:.3f} val_macro_f1 {val_f1:.3f} | "
          f"per-class f1 {[round(f, 3) for f in per_class]} | {time.time() - t0:.1f}s")

torch.save(model.state_dict(), "severity_mlp.pt")
print("saved severity_mlp.pt")
