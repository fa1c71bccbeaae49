"""Short-horizon forecaster for the turbine vibration channel.

Input: one long recording (~17 h at 100 Hz). Every offset of the recording is a training
example: WINDOW past samples -> HORIZON future samples.
"""
import time

import numpy as np
import torch
import torch.nn as nn
from numpy.lib.stride_tricks import sliding_window_view
from torch.utils.data import DataLoader, Dataset, RandomSampler

WINDOW = 2048
HORIZON = 32
BATCH = 64
STEPS_PER_EPOCH = 150
EPOCHS = 3
torch.manual_seed(0)


def load_recording(n=6_000_000, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / 100.0
    rpm = 1 + 0.05 * np.sin(2 * np.pi * t / 3600)
    phase = 2 * np.pi * np.cumsum(7.3 * rpm) / 100.0
    sig = np.sin(phase) + 0.4 * np.sin(3 * phase + 0.5) + 0.2 * rng.standard_normal(n)
    return sig.astype(np.float32)


class VibrationWindows(Dataset):
    def __init__(self, signal, window, horizon):
        self.mean, self.std = float(signal.mean()), float(signal.std())
        sig = (signal - self.mean) / self.std
        span = sliding_window_view(sig, window + horizon)
        self.samples = torch.tensor(span, dtype=torch.float32)
        self.window = window

    def __len__(self):
        return self.samples.shape[0]

    def __getitem__(self, i):
        row = self.samples[i]
        return row[: self.window], row[self.window:]


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 16, 9, stride=4, padding=4), nn.GELU(),
            nn.Conv1d(16, 32, 9, stride=4, padding=4), nn.GELU(),
            nn.Conv1d(32, 32, 9, stride=4, padding=4), nn.GELU(),
        )
        self.head = nn.Linear(32 * (WINDOW // 64), HORIZON)

    def forward(self, x):
        return self.head(self.features(x.unsqueeze(1)).flatten(1))


def main():
    t0 = time.time()
    signal = load_recording()
    print(f"recording: {signal.size:,} samples ({signal.nbytes / 2**20:.0f} MiB) loaded in {time.time() - t0:.1f}s", flush=True)
    n_train = int(0.9 * signal.size)
    train_ds = VibrationWindows(signal[:n_train], WINDOW, HORIZON)
    val_ds = VibrationWindows(signal[n_train:], WINDOW, HORIZON)
    print(f"train windows {len(train_ds):,} val windows {len(val_ds):,} ({time.time() - t0:.1f}s)", flush=True)

    train_loader = DataLoader(train_ds, batch_size=BATCH,
                              sampler=RandomSampler(train_ds, replacement=True, num_samples=BATCH * STEPS_PER_EPOCH))
    val_loader = DataLoader(val_ds, batch_size=256,
                            sampler=RandomSampler(val_ds, replacement=True, num_samples=256 * 20, generator=torch.Generator().manual_seed(1)))
    model = Forecaster()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(1, EPOCHS + 1):
        model.train()
        te, tot = time.time(), 0.0
        for x, y in train_loader:
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        model.eval()
        with torch.no_grad():
            val = np.mean([loss_fn(model(x), y).item() for x, y in val_loader])
        print(f"epoch {epoch} train_mse {tot / STEPS_PER_EPOCH:.4f} val_mse {val:.4f} ({time.time() - te:.1f}s)", flush=True)
    torch.save(model.state_dict(), "forecaster.pt")


if __name__ == "__main__":
    main()
