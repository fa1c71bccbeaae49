"""Human-activity recognition from 3-axis accelerometer windows (1D CNN).
6 activities, 128-sample windows at 50 Hz."""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES, WIN = 6, 128
EPOCHS = 12


def synth_windows(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    t = torch.arange(WIN).float() / 50.0
    freq = 0.8 + 0.35 * y.float()                       # cadence differs per activity
    amp = 0.3 + 0.15 * (y % 3).float()
    phase = 2 * math.pi * torch.rand(n, 1, generator=g)
    base = torch.sin(2 * math.pi * freq[:, None] * t[None] + phase)
    x = torch.stack([amp[:, None] * base,
                     0.5 * amp[:, None] * torch.cos(2 * math.pi * freq[:, None] * t[None] + phase),
                     (y >= 3).float()[:, None] * 0.4 + 0.05 * base], dim=1)
    x = x + 0.35 * torch.randn(x.shape, generator=g)
    return TensorDataset(x, y)


class HARNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(3, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(64, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
        )
        self.fc = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.fc(self.conv(x).mean(-1))


def evaluate(model, dl):
    model.eval()
    correct = n = 0
    loss = 0.0
    with torch.no_grad():
        for x, y in dl:
            out = model(x)
            loss += F.cross_entropy(out, y, reduction="sum").item()
            correct += (out.argmax(1) == y).sum().item()
            n += len(y)
    return loss / n, correct / n


def main():
    torch.manual_seed(0)
    train_dl = DataLoader(synth_windows(2500, 1), batch_size=64, shuffle=True, drop_last=True)
    val_dl = DataLoader(synth_windows(1000, 2), batch_size=256)

    model = HARNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.1)

    for epoch in range(EPOCHS):
        model.train()
        t0, tot, n = time.time(), 0.0, 0
        for x, y in train_dl:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            scheduler.step()
            tot += loss.item() * len(y)
            n += len(y)
        val_loss, val_acc = evaluate(model, val_dl)
        print(f"epoch {epoch:2d} train_loss {tot / n:.4f} val_loss {val_loss:.4f} val_acc {val_acc:.3f} "
              f"({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
