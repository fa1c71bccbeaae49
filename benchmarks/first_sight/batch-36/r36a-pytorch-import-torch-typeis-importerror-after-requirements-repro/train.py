"""Wind-turbine power-curve regressor (small MLP), config in config.yaml."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing_extensions import Literal

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import yaml
from tqdm import tqdm


@dataclass
class Config:
    epochs: int = 5
    batch_size: int = 256
    lr: float = 2e-3
    activation: Literal["relu", "gelu"] = "gelu"


def load_config(path="config.yaml") -> Config:
    try:
        with open(path) as fh:
            return Config(**(yaml.safe_load(fh) or {}))
    except FileNotFoundError:
        return Config()


def make_data(n, rng):
    wind = rng.uniform(0, 25, n)
    direction = rng.uniform(0, 360, n)
    temp = rng.normal(12, 8, n)
    power = np.clip((wind - 3) ** 3 / 1000, 0, 2.0) * (wind < 24) * (1 + 0.002 * (15 - temp))
    power += rng.normal(0, 0.03, n)
    X = np.stack([wind / 25, np.sin(np.radians(direction)), np.cos(np.radians(direction)), (temp - 12) / 8], 1)
    return torch.tensor(X, dtype=torch.float32), torch.tensor(power, dtype=torch.float32)


def main():
    cfg = load_config()
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    X, y = make_data(50_000, rng)
    Xv, yv = make_data(5_000, rng)
    act = nn.GELU() if cfg.activation == "gelu" else nn.ReLU()
    model = nn.Sequential(nn.Linear(4, 128), act, nn.Linear(128, 128), act, nn.Linear(128, 1))
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    t0 = time.time()
    for epoch in range(cfg.epochs):
        perm = torch.randperm(len(X))
        for i in tqdm(range(0, len(X), cfg.batch_size), desc=f"epoch {epoch}", leave=False):
            b = perm[i:i + cfg.batch_size]
            loss = F.mse_loss(model(X[b]).squeeze(-1), y[b])
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            rmse = F.mse_loss(model(Xv).squeeze(-1), yv).sqrt().item()
        print(f"epoch {epoch} val_rmse {rmse:.4f} MW ({time.time() - t0:.0f}s)")


if __name__ == "__main__":
    main()
