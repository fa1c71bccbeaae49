"""Activity recognition from 3-axis accelerometer windows: 1D CNN, per-epoch validation."""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
WIN, CH, N_CLASSES = 128, 3, 6
ACTIVITIES = ["walk", "run", "sit", "stand", "stairs_up", "stairs_down"]


class IMUWindows(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        t = np.arange(WIN) / 50.0
        self.y = rng.integers(0, N_CLASSES, n)
        freq = 0.5 + 0.6 * self.y[:, None, None]
        amp = 0.2 + 0.3 * (self.y[:, None, None] % 3)
        phase = rng.uniform(0, 2 * np.pi, (n, CH, 1))
        x = amp * np.sin(2 * np.pi * freq * t[None, None] + phase)
        x += 0.4 * rng.standard_normal((n, CH, WIN))
        self.x = x.astype(np.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])


class HARNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(CH, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 64, 5, padding=2, stride=2), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Conv1d(64, 64, 5, padding=2, stride=2), nn.BatchNorm1d(64), nn.ReLU(),
        )
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.head(self.features(x).mean(-1))


def evaluate(model, loader):
    model.eval()
    correct, total, t0 = 0, 0, time.time()
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    dt = time.time() - t0
    return correct / total, dt, total / dt


def main():
    train_ds, val_ds = IMUWindows(24000, 0), IMUWindows(6000, 1)
    train_dl = DataLoader(train_ds, batch_size=256, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, shuffle=False)
    model = HARNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(3):
        model.train()
        t0, seen = time.time(), 0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen += len(y)
        train_dt = time.time() - t0
        acc, val_dt, val_sps = evaluate(model, val_dl)
        print(f"epoch {epoch} loss {loss.item():.4f} train {train_dt:.1f}s ({seen / train_dt:.0f} samples/s) "
              f"| val_acc {acc:.4f} val {val_dt:.1f}s ({val_sps:.0f} samples/s)", flush=True)


if __name__ == "__main__":
    main()
