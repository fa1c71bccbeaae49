"""Bearing fault classifier on raw accelerometer windows (1D CNN).

Windows are band-pass filtered and standardised in torch; the filter was checked
against the scipy reference implementation when the pipeline was ported.
"""
import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)   # keep filtering identical to the scipy reference
torch.manual_seed(0)
np.random.seed(0)

FS = 25_600            # Hz
WIN = 16_384           # samples per window (0.64 s)
N_CLASSES = 4          # healthy, inner race, outer race, ball
BATCH_SIZE = 32
EPOCHS = 2
N_TRAIN, N_VAL = 128, 64


def synth_windows(n):
    """Stand-in for the .npy exports of the test rig."""
    t = np.arange(WIN) / FS
    y = np.random.randint(0, N_CLASSES, size=n)
    x = np.random.randn(n, WIN).astype(np.float32) * 0.5
    fault_hz = np.array([0.0, 162.2, 107.4, 141.1])
    for i in range(n):
        if y[i]:
            x[i] += (np.sin(2 * math.pi * fault_hz[y[i]] * t) *
                     (np.sin(2 * math.pi * 3000 * t) > 0.5)).astype(np.float32) * 3.0
    return x, y


def bandpass_kernel(lo=500.0, hi=10_000.0, taps=129):
    n = torch.arange(taps) - (taps - 1) / 2
    def sinc_lp(fc):
        return 2 * fc / FS * torch.special.sinc(2 * fc / FS * n)
    h = (sinc_lp(hi) - sinc_lp(lo)) * torch.hann_window(taps, periodic=False)
    return h.view(1, 1, -1)


class Windows(torch.utils.data.Dataset):
    def __init__(self, x, y):
        self.x = torch.as_tensor(x)
        self.y = torch.as_tensor(y)
        self.kernel = bandpass_kernel()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        w = self.x[i].to(torch.get_default_dtype()).view(1, 1, -1)
        w = F.conv1d(w, self.kernel, padding=self.kernel.shape[-1] // 2)[0]
        w = (w - w.mean()) / (w.std() + 1e-8)
        return w, self.y[i]


def block(cin, cout, k=7):
    return nn.Sequential(nn.Conv1d(cin, cout, k, padding=k // 2), nn.BatchNorm1d(cout),
                         nn.ReLU())


class FaultCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            block(1, 16), block(16, 16), nn.MaxPool1d(2),
            block(16, 32), block(32, 32), nn.MaxPool1d(4),
            block(32, 64), nn.AdaptiveAvgPool1d(1),
        )
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def main():
    xtr, ytr = synth_windows(N_TRAIN)
    xva, yva = synth_windows(N_VAL)
    train_dl = torch.utils.data.DataLoader(Windows(xtr, ytr), batch_size=BATCH_SIZE, shuffle=True)
    val_dl = torch.utils.data.DataLoader(Windows(xva, yva), batch_size=BATCH_SIZE)

    model = FaultCNN()
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model params: {n_params:,}  batch {BATCH_SIZE} x 1 x {WIN}")
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(train_dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} ({time.time() - t0:.1f}s)",
                  flush=True)
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(xb).argmax(1) == yb).sum().item()
        print(f"epoch {epoch} val acc {correct / N_VAL:.3f}", flush=True)


if __name__ == "__main__":
    main()
