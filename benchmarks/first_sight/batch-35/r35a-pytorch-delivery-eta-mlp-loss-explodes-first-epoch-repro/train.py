"""ETA model for grocery deliveries: predicts log delivery minutes from order/route features."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
FEATURES = ["distance_km", "basket_value_eur", "n_items", "courier_rating", "rain_mm",
            "frozen_share", "route_grade", "stairs_floor", "hour_sin", "hour_cos"]
EPOCHS = 12
BATCH = 256
LR = 0.02


def load_orders(n=40000, seed=0):
    """Order export (synthetic stand-in with the production column ranges)."""
    rng = np.random.default_rng(seed)
    hour = rng.uniform(8, 22, n)
    X = np.column_stack([
        rng.gamma(2.0, 2.5, n),                 # distance_km
        rng.gamma(3.0, 15.0, n),                # basket_value_eur
        rng.poisson(18, n).astype(float),       # n_items
        rng.normal(4.6, 0.25, n).clip(1, 5),    # courier_rating
        rng.exponential(0.8, n),                # rain_mm
        rng.beta(1.2, 8.0, n),                  # frozen_share
        rng.normal(0.0, 0.03, n),               # route_grade
        rng.integers(0, 8, n).astype(float),    # stairs_floor
        np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24),
    ])
    minutes = (12 + 3.1 * X[:, 0] + 0.25 * X[:, 2] - 2.0 * (X[:, 3] - 4.6) + 1.5 * X[:, 4]
               + 60 * np.abs(X[:, 6]) + 0.8 * X[:, 7] + 3 * X[:, 8] + rng.normal(0, 3, n))
    return X.astype(np.float32), np.log(minutes.clip(5)).astype(np.float32)


class FeatureScaler:
    def fit(self, X):
        self.mean_ = X.mean(dim=0, keepdim=True)
        self.scale_ = X.var(dim=0, keepdim=True)
        return self

    def transform(self, X):
        return (X - self.mean_) / self.scale_


def main():
    X, y = load_orders()
    X, y = torch.from_numpy(X), torch.from_numpy(y)
    n_val = 8000
    Xtr, ytr, Xva, yva = X[n_val:], y[n_val:], X[:n_val], y[:n_val]
    scaler = FeatureScaler().fit(Xtr)
    Xtr, Xva = scaler.transform(Xtr), scaler.transform(Xva)
    dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=BATCH, shuffle=True)

    model = nn.Sequential(nn.Linear(len(FEATURES), 128), nn.ReLU(),
                          nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)
    loss_fn = nn.MSELoss()
    for epoch in range(EPOCHS):
        model.train()
        tot = 0.0
        for step, (xb, yb) in enumerate(dl):
            opt.zero_grad()
            loss = loss_fn(model(xb).squeeze(-1), yb)
            if not torch.isfinite(loss):
                raise FloatingPointError(f"non-finite training loss {loss.item()} at epoch {epoch} step {step}")
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
            if step % 4 == 0 and (epoch == 0 or step == 0):
                print(f"  step {step:3d}  mse={loss.item():.4g}")
        model.eval()
        with torch.no_grad():
            pred = model(Xva).squeeze(-1)
            val_mse = loss_fn(pred, yva).item()
            mae_min = (pred.exp() - yva.exp()).abs().mean().item()
        print(f"epoch {epoch:2d}  train_mse={tot / len(Xtr):.4g}  val_mse={val_mse:.4g}  val_MAE_min={mae_min:.4g}")
    torch.save({"model": model.state_dict(), "mean": scaler.mean_, "scale": scaler.scale_}, "eta_mlp.pt")


if __name__ == "__main__":
    main()
