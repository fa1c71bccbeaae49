"""Property valuation MLP (tabular regression) trained with accelerate.

Step 1 builds a compact feature cache from the county export (we keep a few
million rows in production, so the cache is stored in half precision).
Step 2 trains a small MLP on the cached features.
"""
import json
import os

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset

CACHE_DIR = "/tmp/valuation_cache"
FEATURES = ["living_area_sqft", "lot_size_sqft", "bedrooms", "bathrooms",
            "year_built", "garage_spaces", "dist_to_center_km", "school_score"]


def synth_county_export(n=20000, seed=7):
    """Stand-in for the county CSV export (same columns and ranges)."""
    rng = np.random.default_rng(seed)
    living = rng.lognormal(7.4, 0.35, n)                 # ~1600 sqft
    lot = rng.lognormal(8.9, 0.55, n)                    # ~7000 sqft, rural parcels much larger
    rural = rng.random(n) < 0.0008
    lot[rural] = rng.uniform(70_000, 400_000, rural.sum())
    beds = rng.integers(1, 6, n).astype(float)
    baths = np.clip(beds - rng.integers(0, 2, n), 1, None)
    year = rng.integers(1900, 2022, n).astype(float)
    garage = rng.integers(0, 4, n).astype(float)
    dist = rng.gamma(2.0, 6.0, n)
    school = rng.uniform(1, 10, n)
    X = np.stack([living, lot, beds, baths, year, garage, dist, school], 1)
    price = (120 * living + 2.0 * np.sqrt(lot) * 100 + 15_000 * baths
             - 3_500 * dist + 9_000 * school + 300 * (year - 1900)
             + rng.normal(0, 25_000, n))
    return X, price


def build_cache():
    os.makedirs(CACHE_DIR, exist_ok=True)
    X, y = synth_county_export()
    stats = {"mean": X.mean(0).tolist(), "std": X.std(0).tolist(),
             "y_mean": float(y.mean()), "y_std": float(y.std())}
    with open(os.path.join(CACHE_DIR, "stats.json"), "w") as f:
        json.dump(stats, f)
    # half precision feature cache: 2 bytes per value instead of 8
    torch.save({"X": torch.from_numpy(X).half(),
                "y": torch.from_numpy(y).float()}, os.path.join(CACHE_DIR, "cache.pt"))


class ValuationDataset(Dataset):
    def __init__(self, X, y, stats):
        self.X = X
        self.y = y
        self.mean = np.asarray(stats["mean"], dtype=np.float32)
        self.std = np.asarray(stats["std"], dtype=np.float32)
        self.y_mean, self.y_std = stats["y_mean"], stats["y_std"]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = (self.X[i].float().numpy() - self.mean) / self.std
        t = (self.y[i].item() - self.y_mean) / self.y_std
        return torch.from_numpy(x), torch.tensor(t, dtype=torch.float32)


def main():
    set_seed(0)
    accelerator = Accelerator()
    build_cache()
    cache = torch.load(os.path.join(CACHE_DIR, "cache.pt"))
    X, y = cache["X"], cache["y"]
    with open(os.path.join(CACHE_DIR, "stats.json")) as f:
        stats = json.load(f)
    n_train = 16000
    train_ds = ValuationDataset(X[:n_train], y[:n_train], stats)
    val_ds = ValuationDataset(X[n_train:], y[n_train:], stats)
    accelerator.print(f"train={len(train_ds)} val={len(val_ds)} features={len(FEATURES)}")

    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = nn.Sequential(nn.Linear(len(FEATURES), 128), nn.ReLU(),
                          nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)
    loss_fn = nn.MSELoss()

    for epoch in range(3):
        model.train()
        running = 0.0
        for step, (xb, yb) in enumerate(train_dl, 1):
            pred = model(xb).squeeze(-1)
            loss = loss_fn(pred, yb)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            running += loss.item()
            if step % 10 == 0:
                accelerator.print(f"epoch {epoch} step {step:4d} train_mse {running / 10:.4f}")
                running = 0.0
        model.eval()
        se, n = 0.0, 0
        with torch.no_grad():
            for xb, yb in val_dl:
                pred = model(xb).squeeze(-1)
                se += ((pred - yb) ** 2).sum().item()
                n += yb.numel()
        rmse_usd = (se / n) ** 0.5 * stats["y_std"]
        accelerator.print(f"epoch {epoch} val_rmse ${rmse_usd:,.0f}")


if __name__ == "__main__":
    main()
