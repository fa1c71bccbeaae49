"""Activity recognition from wrist IMU (walk / run / stairs / cycle / idle).

Recordings: 24 volunteers x 5 activities, ~80 s each at 50 Hz, 3-axis accelerometer.
Windows: 2 s (100 samples) with 50% overlap. Model: small 1D CNN.
After training, the model is also scored on the 6 pilot users recorded last week.
"""
import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
ACTS = ["walk", "run", "stairs", "cycle", "idle"]
FS, WIN, HOP, SECONDS = 50, 100, 50, 80


def record(subject_seed, act, rng):
    """One continuous recording of one volunteer doing one activity."""
    srng = np.random.default_rng(subject_seed * 100 + act)
    base_f = [1.8, 2.8, 1.5, 1.2, 0.2][act]
    f = base_f * srng.uniform(0.6, 1.5)
    amp = srng.uniform(0.3, 1.6, size=3)
    phase = srng.uniform(0, 2 * math.pi, size=3)
    harm = srng.uniform(0, 0.8, size=3)
    offset = srng.normal(0, 0.5, size=3)
    t = np.arange(SECONDS * FS) / FS
    sig = [offset[a] + amp[a] * np.sin(2 * math.pi * f * t + phase[a])
           + harm[a] * np.sin(4 * math.pi * f * t + 2 * phase[a]) for a in range(3)]
    return np.stack(sig) + 0.35 * rng.normal(size=(3, len(t)))


def windows(subjects, rng):
    xs, ys, subj = [], [], []
    for s in subjects:
        for a in range(len(ACTS)):
            rec = record(s, a, rng)
            for start in range(0, rec.shape[1] - WIN + 1, HOP):
                xs.append(rec[:, start:start + WIN])
                ys.append(a)
                subj.append(s)
    return (torch.tensor(np.array(xs), dtype=torch.float32), torch.tensor(ys), np.array(subj))


rng = np.random.default_rng(0)
X, y, subj = windows(range(24), rng)
X_pilot, y_pilot, _ = windows(range(100, 106), rng)
print(f"windows: {len(y)} from {len(set(subj))} volunteers; pilot: {len(y_pilot)} windows from 6 users")

full = TensorDataset(X, y)
n_val = int(0.2 * len(full))
train_ds, val_ds = random_split(full, [len(full) - n_val, n_val], generator=torch.Generator().manual_seed(0))
train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=256)
print(f"train {len(train_ds)}  val {len(val_ds)}")

model = nn.Sequential(
    nn.Conv1d(3, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(64, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
    nn.Flatten(), nn.Dropout(0.3), nn.Linear(64, len(ACTS)),
)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-3)


def accuracy(loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for xb, yb in loader:
            correct += (model(xb).argmax(1) == yb).sum().item()
            total += len(yb)
    return correct / total


best = 0.0
for epoch in range(8):
    model.train()
    t0, tot = time.time(), 0.0
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(yb)
    val_acc = accuracy(val_dl)
    if val_acc > best:
        best = val_acc
        torch.save(model.state_dict(), "har_cnn_best.pt")
    print(f"epoch {epoch:2d} train_loss {tot / len(train_ds):.4f} val_acc {val_acc:.4f} ({time.time() - t0:.1f}s)")

model.load_state_dict(torch.load("har_cnn_best.pt"))
pilot_acc = accuracy(DataLoader(TensorDataset(X_pilot, y_pilot), batch_size=256))
print(f"best val_acc {best:.4f}")
print(f"pilot users acc {pilot_acc:.4f}")
pred = model(X_pilot).argmax(1)
for a, name in enumerate(ACTS):
    m = y_pilot == a
    print(f"  pilot {name:7s} recall {(pred[m] == a).float().mean().item():.3f}")
