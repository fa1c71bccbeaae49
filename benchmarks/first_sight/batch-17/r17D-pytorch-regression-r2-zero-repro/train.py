"""House-price regression MLP on tabular features (synthetic stand-in for the real table)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

N, D = 20000, 12
EPOCHS = 20
BATCH = 128


def make_table(n):
    x = rng.normal(size=(n, D)).astype(np.float32)
    sqft = np.exp(7.2 + 0.35 * x[:, 0])
    price = (120 * sqft + 40000 * x[:, 1] + 25000 * np.tanh(x[:, 2]) * x[:, 3]
             + 15000 * x[:, 4] ** 2 + rng.normal(scale=20000, size=n))
    return x, price.astype(np.float32)


class PriceNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(D, 128), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(128, 64), nn.ReLU(),
            nn.Linear(64, 1),
        )

    def forward(self, x):
        return self.net(x)


def r2_score(pred, target):
    ss_res = ((target - pred) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1 - ss_res / ss_tot


def main():
    x, y = make_table(N)
    n_tr = int(0.8 * N)
    x_mean, x_std = x[:n_tr].mean(0), x[:n_tr].std(0)
    y_mean, y_std = y[:n_tr].mean(), y[:n_tr].std()
    xs = torch.from_numpy((x - x_mean) / x_std)
    ys = torch.from_numpy((y - y_mean) / y_std)
    train_dl = DataLoader(TensorDataset(xs[:n_tr], ys[:n_tr]), batch_size=BATCH, shuffle=True)
    xva, yva = xs[n_tr:], ys[n_tr:]
    print(f"train={n_tr} val={N - n_tr} price mean={y_mean:,.0f} std={y_std:,.0f}")

    model = PriceNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
    loss_fn = nn.MSELoss()

    for epoch in range(EPOCHS):
        model.train()
        tot = 0.0
        for xb, yb in train_dl:
            pred = model(xb)
            loss = loss_fn(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            pv = model(xva).squeeze(1)
            val_mse = ((pv - yva) ** 2).mean().item()
            r2 = r2_score(pv, yva).item()
            mae = ((pv - yva).abs().mean() * y_std).item()
        sched.step(val_mse)
        print(f"epoch {epoch:2d} train_mse {tot / n_tr:.4f} val_mse {val_mse:.4f} val_r2 {r2:.4f} "
              f"val_mae ${mae:,.0f} lr {opt.param_groups[0]['lr']:.1e}")

    torch.save(model.state_dict(), "/tmp/price_net.pt")


if __name__ == "__main__":
    main()
