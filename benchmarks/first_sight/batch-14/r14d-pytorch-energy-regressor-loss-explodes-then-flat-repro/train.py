import csv
import io
import time
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(2)

CFG = dict(epochs=8, batch_size=64, lr=2e-4, momentum=0.9)
COLUMNS = ["floor_area_m2", "occupants", "outdoor_temp_c", "humidity_pct", "solar_wm2",
           "is_weekend", "hvac_setpoint_c", "building_age_y", "kwh"]


def export_csv(n, seed=0):
    """Stand-in for the BMS export (one row per building-day)."""
    rng = np.random.default_rng(seed)
    area = rng.uniform(300, 5000, n)
    occ = rng.poisson(area / 25)
    temp = rng.normal(12, 8, n)
    hum = rng.uniform(30, 90, n)
    solar = np.clip(rng.normal(180, 90, n), 0, None)
    weekend = (rng.random(n) < 2 / 7).astype(float)
    setp = rng.uniform(19, 23, n)
    age = rng.uniform(1, 80, n)
    kwh = (0.045 * area + 0.9 * occ * (1 - 0.6 * weekend) + 1.8 * np.abs(setp - temp) * area / 1000
           + 0.4 * age - 0.05 * solar + rng.normal(0, 8, n))
    kwh = np.clip(kwh, 5, None)
    flag = rng.random(n) < 0.004
    kwh[flag] = -9999.0
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(COLUMNS)
    for row in zip(area, occ, temp, hum, solar, weekend, setp, age, kwh):
        w.writerow([f"{v:.2f}" for v in row])
    buf.seek(0)
    return buf


def load(buf):
    rows = list(csv.reader(buf))
    header, body = rows[0], rows[1:]
    data = np.array([[float(v) for v in r] for r in body], dtype=np.float32)
    rows_with_nan = np.isnan(data).any(axis=1)
    print(f"loaded {len(data)} rows, {rows_with_nan.sum()} rows with missing values dropped")
    data = data[~rows_with_nan]
    return data[:, :-1], data[:, -1]


def main():
    X, y = load(export_csv(30000))
    n_tr = 25000
    X_tr, y_tr, X_va, y_va = X[:n_tr], y[:n_tr], X[n_tr:], y[n_tr:]
    mu, sd = X_tr.mean(0), X_tr.std(0)
    X_tr, X_va = (X_tr - mu) / sd, (X_va - mu) / sd
    print(f"target kwh: mean {y_tr.mean():.1f} median {np.median(y_tr):.1f}")

    model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(),
                          nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=CFG["momentum"])
    loss_fn = nn.MSELoss()
    dl = DataLoader(TensorDataset(torch.from_numpy(X_tr), torch.from_numpy(y_tr)),
                    batch_size=CFG["batch_size"], shuffle=True)
    Xv, yv = torch.from_numpy(X_va), torch.from_numpy(y_va)

    for epoch in range(1, CFG["epochs"] + 1):
        model.train()
        t0, losses = time.time(), []
        for step, (xb, yb) in enumerate(dl, 1):
            loss = loss_fn(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            if step % 130 == 0:
                print(f"  epoch {epoch} step {step}/{len(dl)} | mse(last 130) {np.mean(losses[-130:]):.4g}")
        model.eval()
        with torch.no_grad():
            pv = model(Xv).squeeze(1)
            v_rmse = loss_fn(pv, yv).sqrt().item()
            v_mae = (pv - yv).abs().mean().item()
        print(f"epoch {epoch:2d} | train_mse {np.mean(losses):.4g} (max batch {np.max(losses):.4g}) "
              f"| val_rmse {v_rmse:.4g} | val_mae {v_mae:.4g} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
