"""Delivery-time regression (minutes) from tabular order features."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_TRAIN, N_VAL = 200_000, 300_000
N_FEAT = 20
BATCH = 512
EPOCHS = 2


def synth_orders(n, g):
    x = torch.randn(n, N_FEAT, generator=g)
    w = torch.linspace(-2.0, 3.0, N_FEAT)
    minutes = 35.0 + 4.0 * (x @ w) / N_FEAT ** 0.5 + 3.0 * torch.sin(2 * x[:, 0]) \
        + 2.0 * torch.randn(n, generator=g)
    return x, minutes


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FEAT, 128), nn.SiLU(), nn.Linear(128, 64), nn.SiLU(),
                                 nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def main():
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    xtr, ytr = synth_orders(N_TRAIN, g)
    xva, yva = synth_orders(N_VAL, g)
    y_mean, y_std = ytr.mean(), ytr.std()
    print(f"train={N_TRAIN} val={N_VAL} target mean={y_mean:.2f} std={y_std:.2f}")

    dl = DataLoader(TensorDataset(xtr, (ytr - y_mean) / y_std), batch_size=BATCH, shuffle=True)
    model = Regressor()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=EPOCHS * len(dl))

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        running = 0.0
        for i, (xb, yb) in enumerate(dl):
            pred = model(xb)
            loss = F.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            running += loss.item()
            if (i + 1) % 100 == 0:
                print(f"epoch {epoch} step {i + 1}/{len(dl)} train_mse(norm) {running / 100:.4f}")
                running = 0.0
        print(f"epoch {epoch} train time {time.time() - t0:.1f}s, evaluating on {N_VAL} rows")

        model.eval()
        with torch.no_grad():
            pred = model(xva) * y_std + y_mean
            val_mse = F.mse_loss(pred, yva).item()
            val_mae = F.l1_loss(pred, yva).item()
        print(f"epoch {epoch} val_rmse {val_mse ** 0.5:.3f} min  val_mae {val_mae:.3f} min")


if __name__ == "__main__":
    main()
