"""Pump vibration anomaly model: resample historian telemetry to a 1 Hz grid,
cut 60 s windows, train a small 1D-CNN to flag the maintenance-ticket windows."""
import time
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
CHANNELS = ["vib_x", "vib_y", "vib_z", "bearing_temp", "motor_current", "suction_p",
            "discharge_p", "flow", "rpm", "oil_temp", "casing_temp", "power_kw"]
RESAMPLE_STEP = 1          # seconds between grid points (1 Hz)
WINDOW = 60                # 60 s windows
HOURS = 72                 # three days of data per pump
BATCH = 64
EPOCHS = 3


def load_historian_export(pump_id, hours=HOURS, seed=0):
    """Reads the historian export for one pump: irregular timestamps + 12 channels.
    (Synthetic stand-in with the same layout as pump_<id>.parquet.)"""
    rng = np.random.default_rng(seed + pump_id)
    n = hours * 3600 // 5                                   # ~one reading every 5 s
    gaps = rng.integers(3000, 7000, size=n)                 # irregular sampling
    ts = 1_714_521_600_000 + np.cumsum(gaps)                 # historian timestamp column
    t = (ts - ts[0]) / 1000.0
    vals = np.stack([np.sin(t / (200 + 37 * c)) + 0.1 * rng.standard_normal(n)
                     for c in range(len(CHANNELS))], axis=1).astype(np.float32)
    fault = np.zeros(n, dtype=np.int64)
    for start in rng.integers(0, n - 200, size=12):
        vals[start:start + 120, :3] += 1.5 * rng.standard_normal((120, 3)).astype(np.float32)
        fault[start:start + 120] = 1
    return ts, vals, fault


def resample_uniform(ts, vals, fault, step=RESAMPLE_STEP):
    grid = np.arange(ts[0], ts[-1], step)
    out = np.empty((len(grid), vals.shape[1]), dtype=np.float32)
    for c in range(vals.shape[1]):
        out[:, c] = np.interp(grid, ts, vals[:, c])
    lab = fault[np.searchsorted(ts, grid, side="right") - 1]
    return out, lab


def make_windows(x, y, win=WINDOW):
    n = len(x) // win
    xw = x[: n * win].reshape(n, win, x.shape[1]).transpose(0, 2, 1)
    yw = y[: n * win].reshape(n, win).max(axis=1)
    return torch.from_numpy(np.ascontiguousarray(xw)), torch.from_numpy(yw).float()


class VibCNN(nn.Module):
    def __init__(self, c_in=len(CHANNELS)):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(c_in, 32, 5, padding=2), nn.ReLU(),
            nn.Conv1d(32, 32, 5, padding=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    xs, ys = [], []
    for pump in range(3):
        t0 = time.time()
        ts, vals, fault = load_historian_export(pump)
        print(f"pump {pump}: {len(ts)} raw readings, {len(CHANNELS)} channels")
        x, y = resample_uniform(ts, vals, fault)
        xw, yw = make_windows(x, y)
        print(f"pump {pump}: {len(xw)} windows ({time.time() - t0:.1f}s)")
        xs.append(xw); ys.append(yw)
    X, Y = torch.cat(xs), torch.cat(ys)
    X = (X - X.mean(dim=(0, 2), keepdim=True)) / X.std(dim=(0, 2), keepdim=True)
    n_val = len(X) // 5
    perm = torch.randperm(len(X))
    tr, va = perm[n_val:], perm[:n_val]
    loader = DataLoader(TensorDataset(X[tr], Y[tr]), batch_size=BATCH, shuffle=True)
    model = VibCNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(EPOCHS):
        model.train()
        tot = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            pv = (model(X[va]) > 0).float()
        acc = (pv == Y[va]).float().mean().item()
        print(f"epoch {epoch}: train_loss={tot / len(tr):.4f} val_acc={acc:.3f}")
    torch.save(model.state_dict(), "vib_cnn.pt")


if __name__ == "__main__":
    main()
