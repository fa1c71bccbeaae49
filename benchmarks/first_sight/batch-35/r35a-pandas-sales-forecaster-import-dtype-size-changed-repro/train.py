"""Weekly store-sales forecaster: pandas feature engineering + a small torch MLP."""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)


def load_sales(n_stores=60, n_weeks=156, seed=0):
    """Weekly sales per store (synthetic stand-in for the sales_weekly.parquet export)."""
    rng = np.random.default_rng(seed)
    weeks = pd.date_range("2021-01-03", periods=n_weeks, freq="W")
    rows = []
    for s in range(n_stores):
        base = rng.uniform(20, 80)
        season = 1 + 0.25 * np.sin(2 * np.pi * np.arange(n_weeks) / 52 + rng.uniform(0, 6))
        promo = rng.random(n_weeks) < 0.15
        sales = base * season * (1 + 0.3 * promo) + rng.normal(0, 3, n_weeks)
        rows.append(pd.DataFrame({"store": s, "week": weeks, "promo": promo.astype(int), "sales_k": sales}))
    return pd.concat(rows, ignore_index=True)


def make_features(df):
    df = df.sort_values(["store", "week"]).copy()
    g = df.groupby("store")["sales_k"]
    for lag in (1, 2, 52):
        df[f"lag_{lag}"] = g.shift(lag)
    df["roll_mean_4"] = g.transform(lambda s: s.shift(1).rolling(4).mean())
    df["weekofyear"] = df["week"].dt.isocalendar().week.astype(int)
    df["woy_sin"] = np.sin(2 * np.pi * df["weekofyear"] / 52)
    df["woy_cos"] = np.cos(2 * np.pi * df["weekofyear"] / 52)
    return df.dropna()


FEATURES = ["promo", "lag_1", "lag_2", "lag_52", "roll_mean_4", "woy_sin", "woy_cos"]


def main():
    df = make_features(load_sales())
    cutoff = df["week"].max() - pd.Timedelta(weeks=12)
    tr, va = df[df["week"] <= cutoff], df[df["week"] > cutoff]
    print(f"train rows {len(tr)}, val rows {len(va)}")
    mu, sd = tr[FEATURES].mean(), tr[FEATURES].std()
    Xtr = torch.tensor(((tr[FEATURES] - mu) / sd).values, dtype=torch.float32)
    Xva = torch.tensor(((va[FEATURES] - mu) / sd).values, dtype=torch.float32)
    ytr = torch.tensor(tr["sales_k"].values, dtype=torch.float32)
    yva = torch.tensor(va["sales_k"].values, dtype=torch.float32)

    model = nn.Sequential(nn.Linear(len(FEATURES), 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(400):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(Xtr).squeeze(-1), ytr)
        loss.backward()
        opt.step()
        if epoch % 80 == 79:
            with torch.no_grad():
                mae = (model(Xva).squeeze(-1) - yva).abs().mean().item()
            print(f"epoch {epoch + 1}: train_mse={loss.item():.2f} val_mae={mae:.2f}k")
    torch.save(model.state_dict(), "sales_mlp.pt")


if __name__ == "__main__":
    main()
