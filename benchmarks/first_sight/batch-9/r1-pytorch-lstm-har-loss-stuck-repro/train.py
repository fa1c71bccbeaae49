"""Activity recognition from 6-axis IMU windows (50 timesteps) with an LSTM."""
import math
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(3)

ACTIVITIES = ["walk", "run", "stairs_up", "stairs_down", "sit", "stand"]
T, F = 50, 6


def synth_windows(n):
    """Each activity has its own dominant frequency / amplitude / gravity axis; random phase."""
    y = torch.randint(0, len(ACTIVITIES), (n,))
    t = torch.arange(T).float() / 25.0  # 25 Hz
    freq = torch.tensor([1.8, 2.8, 1.4, 1.6, 0.0, 0.0])[y]
    amp = torch.tensor([1.0, 2.2, 0.8, 1.1, 0.05, 0.15])[y]
    grav_axis = torch.tensor([2, 2, 2, 2, 0, 2])[y]
    phase = torch.rand(n) * 2 * math.pi
    base = torch.sin(2 * math.pi * freq[:, None] * t[None] + phase[:, None]) * amp[:, None]
    x = torch.randn(n, T, F) * 0.3
    for ax in range(3):
        x[:, :, ax] += base * (0.5 + 0.25 * ax)
        x[:, :, 3 + ax] += torch.cos(2 * math.pi * freq[:, None] * t[None] + phase[:, None]) * amp[:, None] * 0.4
    x[torch.arange(n), :, grav_axis] += 1.0
    return x, y


class HARModel(nn.Module):
    def __init__(self, n_features=F, hidden=64, n_classes=len(ACTIVITIES)):
        super().__init__()
        self.lstm = nn.LSTM(input_size=n_features, hidden_size=hidden, num_layers=2, dropout=0.1)
        self.head = nn.Sequential(nn.Linear(hidden, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):              # x: (batch, time, features)
        out, _ = self.lstm(x)
        last = out[:, -1, :]           # hidden state at the last timestep
        return self.head(last)


def run_epoch(model, dl, crit, opt=None):
    train = opt is not None
    model.train(train)
    tot, correct, n = 0.0, 0, 0
    with torch.set_grad_enabled(train):
        for xb, yb in dl:
            logits = model(xb)
            loss = crit(logits, yb)
            if train:
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
            tot += loss.item() * len(yb)
            correct += (logits.argmax(1) == yb).sum().item()
            n += len(yb)
    return tot / n, correct / n


def main():
    Xtr, ytr = synth_windows(6000)
    Xva, yva = synth_windows(1000)
    train_dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=64, shuffle=True)
    val_dl = DataLoader(TensorDataset(Xva, yva), batch_size=64)
    print(f"train windows {tuple(Xtr.shape)}  val windows {tuple(Xva.shape)}  classes {ACTIVITIES}")

    model = HARModel()
    crit = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(1, 16):
        t0 = time.time()
        tr_loss, tr_acc = run_epoch(model, train_dl, crit, opt)
        va_loss, va_acc = run_epoch(model, val_dl, crit)
        print(f"epoch {epoch:2d}  train_loss {tr_loss:.4f} train_acc {tr_acc:.3f}  "
              f"val_loss {va_loss:.4f} val_acc {va_acc:.3f}  ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
