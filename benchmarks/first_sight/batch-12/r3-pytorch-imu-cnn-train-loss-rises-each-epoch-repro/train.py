"""Activity recognition from 3-axis accelerometer windows (walk / run / sit / stairs).

Small 1D-CNN; jitter + scaling augmentation on the training windows.
"""
import math
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
WIN = 64
CLASSES = ["walk", "run", "sit", "stairs"]


def synth_windows(n, g):
    t = torch.arange(WIN) / 32.0
    y = torch.randint(0, len(CLASSES), (n,), generator=g)
    freq = torch.tensor([1.8, 2.8, 0.0, 1.2])[y]
    amp = torch.tensor([0.6, 1.2, 0.05, 0.5])[y]
    phase = torch.rand(n, 3, 1, generator=g) * 2 * math.pi
    x = amp[:, None, None] * torch.sin(2 * math.pi * freq[:, None, None] * t + phase)
    x[:, 2] += 1.0                                   # gravity on z
    x[y == 3, 2] += 0.3 * torch.sin(2 * math.pi * 0.6 * t)   # stairs: slow vertical drift
    x += 0.15 * torch.randn(x.shape, generator=g)
    return x, y


class IMUWindows(Dataset):
    def __init__(self, x, y, augment=False, jitter=0.4, scale=0.2):
        self.x, self.y = x, y
        self.augment, self.jitter, self.scale = augment, jitter, scale

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.x[i]
        if self.augment:
            x += self.jitter * torch.randn_like(x)
            x *= 1.0 + self.scale * torch.randn(3, 1)
        return x, self.y[i]


model = nn.Sequential(
    nn.Conv1d(3, 32, 5, padding=2), nn.ReLU(),
    nn.Conv1d(32, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(32, 64, 5, padding=2), nn.ReLU(),
    nn.AdaptiveAvgPool1d(1), nn.Flatten(),
    nn.Linear(64, len(CLASSES)),
)

g = torch.Generator().manual_seed(42)
x_tr, y_tr = synth_windows(2000, g)
x_va, y_va = synth_windows(500, g)
train_dl = DataLoader(IMUWindows(x_tr, y_tr, augment=True), batch_size=64, shuffle=True)
val_dl = DataLoader(IMUWindows(x_va, y_va), batch_size=256)

opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.CrossEntropyLoss()
t0 = time.time()
for epoch in range(1, 21):
    model.train()
    tot, n = 0.0, 0
    for xb, yb in train_dl:
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        opt.step()
        tot += loss.item() * len(yb)
        n += len(yb)
    model.eval()
    correct = vloss = 0.0
    with torch.no_grad():
        for xb, yb in val_dl:
            out = model(xb)
            vloss += crit(out, yb).item() * len(yb)
            correct += (out.argmax(1) == yb).sum().item()
    print(f"epoch {epoch:2d}  train_loss {tot / n:.4f}  val_loss {vloss / len(y_va):.4f}  "
          f"val_acc {correct / len(y_va):.3f}  ({time.time() - t0:.0f}s)")
