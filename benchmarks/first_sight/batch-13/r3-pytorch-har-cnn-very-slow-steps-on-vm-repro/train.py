"""Human-activity recognition from wrist IMU windows (6 channels x 200 samples @ 50 Hz).

1D CNN, settings shared with the training cluster via CONFIG so that runs on the
dev VM and on the nodes are comparable.
"""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CONFIG = {
    "window": 200,
    "channels": 6,
    "classes": ["walk", "run", "sit", "stand", "stairs_up", "stairs_down"],
    "batch_size": 64,
    "epochs": 2,
    "lr": 2e-3,
    "intra_op_threads": 32,     # cluster nodes: 32 cores per task
    "seed": 0,
}


def load_windows(n, rng):
    """Stand-in for the preprocessed .npy windows."""
    n_cls = len(CONFIG["classes"])
    y = rng.integers(0, n_cls, size=n)
    t = np.arange(CONFIG["window"]) / 50.0
    freq = np.array([1.8, 2.8, 0.0, 0.0, 1.4, 1.6])[y]
    amp = np.array([1.0, 2.2, 0.05, 0.1, 0.9, 1.3])[y]
    base = amp[:, None] * np.sin(2 * np.pi * freq[:, None] * t[None, :])
    x = np.repeat(base[:, None, :], CONFIG["channels"], axis=1)
    x[:, 2] += np.where(np.isin(y, [2]), 1.0, 0.0)[:, None]          # gravity axis when sitting
    x[:, 5] += np.where(np.isin(y, [4]), 0.4, np.where(np.isin(y, [5]), -0.4, 0.0))[:, None]
    x += 0.3 * rng.standard_normal(x.shape)
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y)


class HARNet(nn.Module):
    def __init__(self, c_in, n_cls):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(c_in, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(64, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, n_cls))

    def forward(self, x):
        return self.net(x)


def main():
    torch.manual_seed(CONFIG["seed"])
    torch.set_num_threads(CONFIG["intra_op_threads"])
    rng = np.random.default_rng(CONFIG["seed"])
    xtr, ytr = load_windows(1600, rng)
    xva, yva = load_windows(800, rng)
    train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=CONFIG["batch_size"], shuffle=True)

    model = HARNet(CONFIG["channels"], len(CONFIG["classes"]))
    opt = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    print(f"{len(xtr)} train / {len(xva)} val windows, {len(train_dl)} steps per epoch")

    for epoch in range(CONFIG["epochs"]):
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(train_dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 5 == 4:
                dt = time.time() - t0
                print(f"epoch {epoch} step {step + 1}/{len(train_dl)} loss {loss.item():.4f} "
                      f"| {(step + 1) * CONFIG['batch_size'] / dt:.0f} windows/s", flush=True)
        model.eval()
        with torch.no_grad():
            acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s, val acc {acc:.3f}", flush=True)


if __name__ == "__main__":
    main()
