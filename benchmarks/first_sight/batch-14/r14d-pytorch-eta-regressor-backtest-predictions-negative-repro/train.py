import time
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(3)
torch.set_num_threads(2)

FEATURES = ["distance_km", "items", "basket_eur", "hour", "weekday",
            "courier_rating", "rain_mm", "restaurant_queue"]


class Standardizer:
    def fit(self, a):
        self.mean_ = a.mean(axis=0)
        self.std_ = a.std(axis=0) + 1e-8
        return self

    def transform(self, a):
        return (a - self.mean_) / self.std_

    def fit_transform(self, a):
        return self.fit(a).transform(a)

    def inverse_transform(self, a):
        return a * self.std_ + self.mean_


def make_orders(n, rng):
    dist = rng.gamma(2.0, 1.8, n)
    items = rng.integers(1, 12, n)
    basket = items * rng.uniform(6, 14, n)
    hour = rng.integers(10, 24, n)
    weekday = rng.integers(0, 7, n)
    rating = rng.uniform(3.5, 5.0, n)
    rain = np.where(rng.random(n) < 0.2, rng.gamma(1.5, 2.0, n), 0.0)
    queue = rng.poisson(4, n)
    peak = ((hour >= 12) & (hour <= 13)) | ((hour >= 19) & (hour <= 21))
    eta = (8 + 3.2 * dist + 0.6 * items + 2.0 * queue + 6.0 * peak + 1.1 * rain
           - 2.5 * (rating - 4.2) + 2.0 * (weekday >= 5) + rng.normal(0, 2.5, n))
    X = np.stack([dist, items, basket, hour, weekday, rating, rain, queue], axis=1)
    return X.astype(np.float32), eta.astype(np.float32)


def build_model():
    return nn.Sequential(nn.Linear(len(FEATURES), 128), nn.ReLU(),
                         nn.Linear(128, 128), nn.ReLU(),
                         nn.Linear(128, 1))


def main():
    rng = np.random.default_rng(11)
    X_raw, y_raw = make_orders(24000, rng)
    X_tr_raw, y_tr_raw = X_raw[:18000], y_raw[:18000]
    X_va_raw, y_va_raw = X_raw[18000:21000], y_raw[18000:21000]
    X_bt_raw, y_bt_raw = X_raw[21000:], y_raw[21000:]   # last week's orders for the backtest

    scaler = Standardizer()
    X_tr = scaler.fit_transform(X_tr_raw)
    X_va = scaler.transform(X_va_raw)
    y_tr = scaler.fit_transform(y_tr_raw[:, None])[:, 0]
    y_va = scaler.transform(y_va_raw[:, None])[:, 0]
    print(f"train {len(X_tr)} | val {len(X_va)} | backtest {len(X_bt_raw)} | "
          f"mean eta {y_tr_raw.mean():.1f} min")

    loader = DataLoader(TensorDataset(torch.from_numpy(X_tr), torch.from_numpy(y_tr)),
                        batch_size=256, shuffle=True)
    model = build_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    X_va_t = torch.from_numpy(X_va)

    for epoch in range(1, 11):
        model.train()
        t0, total = time.time(), 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb).squeeze(1), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            va_pred = model(X_va_t).squeeze(1).numpy()
        va_mae = np.abs(scaler.inverse_transform(va_pred) - y_va_raw).mean()
        print(f"epoch {epoch:2d} | train_mse(std) {total / len(X_tr):.4f} | "
              f"val_mae {va_mae:.2f} min | {time.time() - t0:.1f}s")

    torch.save(model.state_dict(), "eta_model.pt")

    def predict_eta(X_new):
        model.eval()
        with torch.no_grad():
            out = model(torch.from_numpy(scaler.transform(X_new).astype(np.float32))).squeeze(1).numpy()
        return scaler.inverse_transform(out)

    bt_pred = predict_eta(X_bt_raw)
    print(f"backtest mae {np.abs(bt_pred - y_bt_raw).mean():.2f} min")
    for i in range(5):
        print(f"  order {i}: features={[round(float(v), 1) for v in X_bt_raw[i]]} "
              f"predicted={bt_pred[i]:.1f} min actual={y_bt_raw[i]:.1f} min")
    print(f"predicted eta range {bt_pred.min():.1f}..{bt_pred.max():.1f} min, "
          f"actual {y_bt_raw.min():.1f}..{y_bt_raw.max():.1f} min")


if __name__ == "__main__":
    main()
