"""Hourly electricity-load forecaster (24 h ahead) for the substation fleet.
Saves the full model object so the scoring job can torch.load() it without this code's config."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

CONFIG = {"lookback": 168, "horizon": 24, "hidden": 256, "depth": 3, "activation": "swish",
          "dropout": 0.1, "epochs": 6, "batch": 128, "lr": 1e-3}

ACTIVATIONS = {
    "relu": nn.ReLU(),
    "gelu": nn.GELU(),
    "swish": lambda x: x * torch.sigmoid(x),
}


def load_substation_series(n_subs=40, hours=24 * 400, seed=0):
    """Hourly load per substation in MW (synthetic stand-in for the SCADA export)."""
    rng = np.random.default_rng(seed)
    t = np.arange(hours)
    out = []
    for _ in range(n_subs):
        base = rng.uniform(5, 40)
        daily = 0.3 * np.sin(2 * np.pi * (t % 24) / 24 - rng.uniform(0, 1))
        weekly = 0.1 * np.sin(2 * np.pi * (t % 168) / 168)
        yearly = 0.2 * np.cos(2 * np.pi * t / (24 * 365))
        out.append(base * (1 + daily + weekly + yearly) + rng.normal(0, 0.05 * base, hours))
    return np.stack(out).astype(np.float32)


def make_windows(series, lookback, horizon, stride=12):
    xs, ys = [], []
    for s in series:
        s = s / s[:24 * 300].mean()                      # per-substation scale
        for a in range(0, len(s) - lookback - horizon, stride):
            xs.append(s[a:a + lookback]); ys.append(s[a + lookback:a + lookback + horizon])
    return torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(ys))


class LoadForecaster(nn.Module):
    def __init__(self, lookback, horizon, hidden, depth, activation, dropout):
        super().__init__()
        self.inp = nn.Linear(lookback, hidden)
        self.blocks = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(depth))
        self.drop = nn.Dropout(dropout)
        self.act = ACTIVATIONS[activation]
        self.out = nn.Linear(hidden, horizon)

    def forward(self, x):
        h = self.act(self.inp(x))
        for blk in self.blocks:
            h = h + self.drop(self.act(blk(h)))
        return self.out(h)


def main():
    torch.manual_seed(0)
    cfg = CONFIG
    X, Y = make_windows(load_substation_series(), cfg["lookback"], cfg["horizon"])
    n_val = len(X) // 10
    perm = torch.randperm(len(X))
    tr, va = perm[n_val:], perm[:n_val]
    dl = DataLoader(TensorDataset(X[tr], Y[tr]), batch_size=cfg["batch"], shuffle=True)
    print(f"{len(tr)} train / {len(va)} val windows")
    model = LoadForecaster(cfg["lookback"], cfg["horizon"], cfg["hidden"], cfg["depth"], cfg["activation"], cfg["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        for xb, yb in dl:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            mape = ((model(X[va]) - Y[va]).abs() / Y[va].abs()).mean().item() * 100
        print(f"epoch {epoch}: train_mse={loss.item():.5f} val_MAPE={mape:.2f}% ({time.time() - t0:.0f}s)")
    torch.save(model, "load_forecaster_full.pt")
    print("saved load_forecaster_full.pt")


if __name__ == "__main__":
    main()
