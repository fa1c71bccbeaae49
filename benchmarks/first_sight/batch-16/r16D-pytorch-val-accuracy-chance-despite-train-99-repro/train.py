import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

CLASSES = ["ok", "worn_bearing", "misalignment", "imbalance"]


CENTERS = rng.normal(0, 1.0, (len(CLASSES), 32)).astype(np.float32)


def make_split(n_per_class, centers=CENTERS):
    """Vibration-sensor windows, one recording session per fault type."""
    feats, labels = [], []
    for c in range(len(CLASSES)):
        f = centers[c] + rng.normal(0, 1.2, (n_per_class, 32)).astype(np.float32)
        feats.append(f)
        labels.append(np.full(n_per_class, c))
    return np.concatenate(feats), np.concatenate(labels)


X_train, y_train = make_split(1500)
X_val, y_val = make_split(400)

train_dl = DataLoader(TensorDataset(torch.from_numpy(X_train), torch.from_numpy(y_train)),
                      batch_size=64, shuffle=True)
val_dl = DataLoader(TensorDataset(torch.from_numpy(X_val), torch.from_numpy(y_val)),
                    batch_size=100, shuffle=False)


class FaultNet(nn.Module):
    def __init__(self, d_in=32, hidden=128, n_cls=4, p=0.2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, n_cls),
        )

    def forward(self, x):
        return self.net(x)


model = FaultNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def evaluate(loader):
    correct, total, loss_sum = 0, 0, 0.0
    per_class = np.zeros(len(CLASSES)); per_class_n = np.zeros(len(CLASSES))
    with torch.no_grad():
        for xb, yb in loader:
            logits = model(xb)
            loss_sum += F.cross_entropy(logits, yb, reduction="sum").item()
            pred = logits.argmax(-1)
            correct += (pred == yb).sum().item()
            total += len(yb)
            for c in range(len(CLASSES)):
                m = yb == c
                per_class[c] += (pred[m] == c).sum().item()
                per_class_n[c] += m.sum().item()
    return loss_sum / total, correct / total, per_class / np.maximum(per_class_n, 1)


for epoch in range(15):
    model.train()
    tl, tc, tn = 0.0, 0, 0
    for xb, yb in train_dl:
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tl += loss.item() * len(yb)
        tc += (logits.argmax(-1) == yb).sum().item()
        tn += len(yb)
    vl, va, pc = evaluate(val_dl)
    print(f"epoch {epoch:2d} train_loss {tl / tn:.4f} train_acc {tc / tn:.3f} | val_loss {vl:.4f} val_acc {va:.3f}")

vl, va, pc = evaluate(val_dl)
print("per-class val acc:", {c: round(float(a), 3) for c, a in zip(CLASSES, pc)})
single = [model(torch.from_numpy(X_val[i:i + 2])).argmax(-1).tolist() for i in (0, 500, 900, 1300)]
print("predictions on pairs of val windows:", single, "true:", [[int(y_val[i]), int(y_val[i + 1])] for i in (0, 500, 900, 1300)])
