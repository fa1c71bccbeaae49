"""Vibration-fault classifier trained on per-recording feature files exported by the plant's ETL job."""
import csv
import glob
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DATA_DIR = "export/vibration_v3"
CLASSES = ["healthy", "imbalance", "misalignment", "bearing_wear"]
N_REC, N_FEAT = 3000, 64
BATCH, EPOCHS, LR = 64, 20, 1e-3
torch.manual_seed(0)


def export_dataset():
    """Stand-in for the ETL job: one .npy spectrum per recording + labels.csv."""
    rng = np.random.default_rng(7)
    os.makedirs(f"{DATA_DIR}/features", exist_ok=True)
    protos = rng.normal(0, 1, size=(len(CLASSES), N_FEAT))
    with open(f"{DATA_DIR}/labels.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["recording_id", "label"])
        for i in range(N_REC):
            c = int(rng.integers(len(CLASSES)))
            spec = protos[c] + 3.0 * rng.normal(0, 1, N_FEAT)
            np.save(f"{DATA_DIR}/features/rec_{i}.npy", spec.astype(np.float32))
            w.writerow([i, CLASSES[c]])


def load_dataset():
    files = sorted(glob.glob(f"{DATA_DIR}/features/rec_*.npy"))
    X = np.stack([np.load(p) for p in files])
    with open(f"{DATA_DIR}/labels.csv") as f:
        y = np.array([CLASSES.index(r["label"]) for r in csv.DictReader(f)])
    assert len(X) == len(y), (len(X), len(y))
    return torch.from_numpy(X), torch.from_numpy(y)


if not os.path.exists(f"{DATA_DIR}/labels.csv"):
    export_dataset()
X, y = load_dataset()
print(f"loaded {len(X)} recordings, {X.shape[1]} features, class counts {torch.bincount(y).tolist()}")

perm = torch.randperm(len(X))
tr, va = perm[:2400], perm[2400:]
mu, sd = X[tr].mean(0), X[tr].std(0)
X = (X - mu) / sd

model = nn.Sequential(nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 128), nn.ReLU(),
                      nn.Linear(128, len(CLASSES)))
opt = torch.optim.Adam(model.parameters(), lr=LR, weight_decay=1e-4)
t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    order = tr[torch.randperm(len(tr))]
    tot, correct = 0.0, 0
    for s in range(0, len(order), BATCH):
        idx = order[s:s + BATCH]
        logits = model(X[idx])
        loss = F.cross_entropy(logits, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(idx)
        correct += (logits.argmax(1) == y[idx]).sum().item()
    model.eval()
    with torch.no_grad():
        val_logits = model(X[va])
        val_loss = F.cross_entropy(val_logits, y[va]).item()
        val_acc = (val_logits.argmax(1) == y[va]).float().mean().item()
    print(f"epoch {epoch:2d} train_loss {tot / len(tr):.4f} train_acc {correct / len(tr):.3f} "
          f"val_loss {val_loss:.4f} val_acc {val_acc:.3f} ({time.time() - t0:.1f}s)")
torch.save(model.state_dict(), "fault_mlp.pt")
