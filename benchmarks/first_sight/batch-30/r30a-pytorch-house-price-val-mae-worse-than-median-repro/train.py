"""House price regressor (MLP on tabular listing features)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

FEATURES = ["sqft", "bedrooms", "bathrooms", "age_years", "dist_center_km", "lot_sqft", "garage"]


def make_listings(n, rng):
    sqft = rng.gamma(9.0, 200.0, n)
    beds = np.clip(np.round(sqft / 650 + rng.normal(0, 0.7, n)), 1, 7)
    baths = np.clip(np.round(beds * 0.7 + rng.normal(0, 0.5, n)), 1, 5)
    age = rng.uniform(0, 90, n)
    dist = rng.gamma(2.0, 6.0, n)
    lot = sqft * rng.uniform(1.2, 6.0, n)
    garage = (rng.random(n) < 0.6).astype(float)
    log_price = (11.2 + 0.00042 * sqft + 0.03 * baths - 0.004 * age - 0.025 * dist
                 + 0.00002 * lot + 0.08 * garage + rng.normal(0, 0.12, n))
    X = np.stack([sqft, beds, baths, age, dist, lot, garage], 1)
    return X.astype(np.float32), np.exp(log_price).astype(np.float32)


class Listings(Dataset):
    def __init__(self, X, price, mean, std):
        self.X = torch.from_numpy((X - mean) / std)
        self.y = torch.from_numpy(np.log1p(price))

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


def predict(model, X):
    model.eval()
    with torch.no_grad():
        return model(X).squeeze(-1).numpy()


def main():
    rng = np.random.default_rng(42)
    torch.manual_seed(42)
    X, price = make_listings(20000, rng)
    X_tr, X_va, p_tr, p_va = X[:16000], X[16000:], price[:16000], price[16000:]
    mean, std = X_tr.mean(0), X_tr.std(0)
    train_ds = Listings(X_tr, p_tr, mean, std)
    val_ds = Listings(X_va, p_va, mean, std)
    dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    print(f"torch {torch.__version__} | train {len(train_ds)} val {len(val_ds)} | "
          f"median price ${np.median(p_tr):,.0f}")

    model = nn.Sequential(nn.Linear(len(FEATURES), 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    baseline_mae = np.abs(p_va - np.median(p_tr)).mean()
    for epoch in range(1, 16):
        model.train()
        tot = 0.0
        for xb, yb in dl:
            loss = nn.functional.mse_loss(model(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        if epoch % 3 == 0:
            pred = predict(model, val_ds.X)
            mae = np.abs(pred - p_va).mean()
            mape = (np.abs(pred - p_va) / p_va).mean() * 100
            print(f"epoch {epoch:2d} | train_mse {tot / len(train_ds):.4f} | val_MAE ${mae:,.0f} "
                  f"| val_MAPE {mape:.1f}% | median-baseline MAE ${baseline_mae:,.0f}")


if __name__ == "__main__":
    main()
