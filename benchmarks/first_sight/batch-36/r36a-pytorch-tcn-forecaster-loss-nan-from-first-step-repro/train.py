"""TCN forecaster for building chiller power (next 12 steps from the last 96).

Temporal blocks follow the usual TCN recipe (dilated causal convs with weight
normalisation). The second conv of each residual block starts at zero so every
block is an identity map at initialisation (Fixup/ReZero-style), which made the
deeper 8-block model train more reliably in an earlier experiment.
"""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
rng = np.random.default_rng(0)

CONTEXT, HORIZON = 96, 12
N_SERIES_STEPS = 60_000
CHANNELS = 64
N_BLOCKS = 6
EPOCHS = 3
BATCH = 128


def make_series(n):
    t = np.arange(n)
    daily = np.sin(2 * np.pi * t / 96)
    weekly = 0.5 * np.sin(2 * np.pi * t / (96 * 7))
    temp = 22 + 6 * daily + rng.normal(0, 0.8, n).cumsum() * 0.01
    power = 120 + 40 * daily + 15 * weekly + 3 * (temp - 22) + rng.normal(0, 4, n)
    return np.stack([power, temp], axis=1).astype(np.float32)


series = make_series(N_SERIES_STEPS)
mu, sd = series[:50_000].mean(0), series[:50_000].std(0)
series = (series - mu) / sd

idx = np.arange(0, N_SERIES_STEPS - CONTEXT - HORIZON, 8)
X = np.stack([series[i:i + CONTEXT].T for i in idx])                    # (N, 2, 96)
Y = np.stack([series[i + CONTEXT:i + CONTEXT + HORIZON, 0] for i in idx])  # (N, 12)
split = int(0.85 * len(idx))
train_dl = DataLoader(TensorDataset(torch.from_numpy(X[:split]), torch.from_numpy(Y[:split])),
                      batch_size=BATCH, shuffle=True)
val_dl = DataLoader(TensorDataset(torch.from_numpy(X[split:]), torch.from_numpy(Y[split:])),
                    batch_size=512)


def wn_conv(c_in, c_out, k, dilation, zero_init=False):
    conv = nn.Conv1d(c_in, c_out, k, padding=(k - 1) * dilation, dilation=dilation)
    if zero_init:
        nn.init.zeros_(conv.weight)
        nn.init.zeros_(conv.bias)
    else:
        nn.init.normal_(conv.weight, 0.0, 0.01)
    return weight_norm(conv)


class TemporalBlock(nn.Module):
    def __init__(self, c_in, c_out, k, dilation, dropout=0.1):
        super().__init__()
        self.chomp = (k - 1) * dilation
        self.conv1 = wn_conv(c_in, c_out, k, dilation)
        self.conv2 = wn_conv(c_out, c_out, k, dilation, zero_init=True)
        self.drop = nn.Dropout(dropout)
        self.down = nn.Conv1d(c_in, c_out, 1) if c_in != c_out else nn.Identity()

    def forward(self, x):
        h = self.drop(F.relu(self.conv1(x)[..., :-self.chomp]))
        h = self.drop(self.conv2(h)[..., :-self.chomp])
        return F.relu(h + self.down(x))


class TCN(nn.Module):
    def __init__(self):
        super().__init__()
        blocks, c_in = [], 2
        for i in range(N_BLOCKS):
            blocks.append(TemporalBlock(c_in, CHANNELS, k=3, dilation=2 ** i))
            c_in = CHANNELS
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Linear(CHANNELS, HORIZON)

    def forward(self, x):
        return self.head(self.blocks(x)[..., -1])


model = TCN()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
print(f"train windows {split}, val windows {len(idx) - split}, params {sum(p.numel() for p in model.parameters()):,}")
t0 = time.time()
step = 0
for epoch in range(EPOCHS):
    model.train()
    for xb, yb in train_dl:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % 25 == 0:
            print(f"epoch {epoch} step {step} train_mse {loss.item():.4f}", flush=True)
    model.eval()
    with torch.no_grad():
        se, n = 0.0, 0
        for xb, yb in val_dl:
            se += F.mse_loss(model(xb), yb, reduction="sum").item()
            n += yb.numel()
    rmse_kw = (se / n) ** 0.5 * sd[0]
    print(f"== epoch {epoch} val_rmse {rmse_kw:.2f} kW ({time.time() - t0:.0f}s)", flush=True)
