"""Delivery-time regression (minutes) from order features. MLP + standardized inputs/targets,
SLA-weighted squared error."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

EPOCHS = 12
BATCH = 256


def load_orders(n=30_000, seed=7):
    rng = np.random.default_rng(seed)
    distance_km = rng.gamma(2.0, 2.5, n)
    items = rng.integers(1, 15, n)
    hour = rng.integers(0, 24, n)
    rush = ((hour >= 11) & (hour <= 13)) | ((hour >= 18) & (hour <= 20))
    rain = rng.random(n) < 0.2
    courier_rating = rng.normal(4.5, 0.3, n)
    minutes = (12 + 3.1 * distance_km + 0.8 * items + 9 * rush + 6 * rain
               - 4 * (courier_rating - 4.5) + rng.normal(0, 3, n))
    X = np.column_stack([distance_km, items, np.sin(2 * np.pi * hour / 24),
                         np.cos(2 * np.pi * hour / 24), rush, rain, courier_rating]).astype(np.float32)
    return X, minutes.astype(np.float32)


def main():
    torch.manual_seed(0)
    X, y = load_orders()
    n_tr = 24_000
    x_mu, x_sd = X[:n_tr].mean(0), X[:n_tr].std(0)
    y_mu, y_sd = y[:n_tr].mean(), y[:n_tr].std()
    Xs = (X - x_mu) / x_sd
    ys = (y - y_mu) / y_sd

    train_dl = DataLoader(TensorDataset(torch.from_numpy(Xs[:n_tr]), torch.from_numpy(ys[:n_tr])),
                          batch_size=BATCH, shuffle=True)
    X_val, y_val = torch.from_numpy(Xs[n_tr:]), y[n_tr:]

    model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
                          nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)

    print(f"train {n_tr} / val {len(y_val)}  target mean {y_mu:.1f} min, std {y_sd:.1f} min")
    for epoch in range(EPOCHS):
        model.train()
        t0, tot = time.time(), 0.0
        for xb, yb in train_dl:
            opt.zero_grad()
            pred = model(xb)
            # late orders (> +1 std) matter most for the SLA, weight them 3x
            w = 1.0 + 2.0 * (yb > 1.0).float()
            loss = (w * (pred - yb) ** 2).mean()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            pred = model(X_val).squeeze(1).numpy() * y_sd + y_mu
        mae = np.abs(pred - y_val).mean()
        rmse = np.sqrt(((pred - y_val) ** 2).mean())
        r2 = 1 - ((pred - y_val) ** 2).sum() / ((y_val - y_val.mean()) ** 2).sum()
        sched.step(rmse)
        print(f"epoch {epoch:2d} train_wmse(std) {tot / n_tr:.4f}  val MAE {mae:.2f} min  "
              f"RMSE {rmse:.2f} min  R2 {r2:.3f}  lr {opt.param_groups[0]['lr']:.1e}  "
              f"({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
