"""Battery-pack thermal model: predict cell temperature (K) 30 s ahead from BMS telemetry."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

FEATURES = ["ambient_K", "cell_K", "current_A", "soc", "coolant_flow", "fan_duty"]


def simulate(n, g):
    ambient = 288 + 15 * torch.rand(n, generator=g)
    cell = ambient + 25 * torch.rand(n, generator=g)
    current = 150 * torch.rand(n, generator=g) - 50
    soc = torch.rand(n, generator=g)
    flow = torch.rand(n, generator=g)
    fan = torch.rand(n, generator=g)
    heat = 4e-4 * current ** 2 * (1.2 - 0.4 * soc)
    cooling = (cell - ambient) * (0.05 + 0.25 * flow + 0.1 * fan)
    target = cell + 30 * (heat - cooling) / 60 + 0.05 * torch.randn(n, generator=g)
    x = torch.stack([ambient, cell, current, soc, flow, fan], 1)
    return x, target


class ThermalNet(nn.Module):
    def __init__(self, mean, std, target_mean):
        super().__init__()
        self.register_buffer("mean", mean)
        self.register_buffer("std", std)
        self.body = nn.Sequential(nn.Linear(len(FEATURES), 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(),
                                  nn.Linear(128, 64), nn.SiLU())
        self.head = nn.Linear(64, 1)
        nn.init.constant_(self.head.bias, target_mean)

    def forward(self, x):
        return self.head(self.body((x - self.mean) / self.std)).squeeze(-1)


def main():
    set_seed(0)
    accelerator = Accelerator(mixed_precision="bf16", cpu=True)
    g = torch.Generator().manual_seed(0)
    x, y = simulate(60000, g)
    x_tr, y_tr, x_va, y_va = x[:50000], y[:50000], x[50000:], y[50000:]
    model = ThermalNet(x_tr.mean(0), x_tr.std(0), y_tr.mean().item())
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=256, shuffle=True)
    val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=1024)
    epochs = 8
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * len(train_dl))
    model, opt, train_dl, val_dl, sched = accelerator.prepare(model, opt, train_dl, val_dl, sched)
    accelerator.print(f"target range {y.min():.1f}-{y.max():.1f} K, std {y.std():.2f} K")

    t0 = time.time()
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            sched.step()
        model.eval()
        se, ae, n = 0.0, 0.0, 0
        with torch.no_grad():
            for xb, yb in val_dl:
                err = model(xb).float() - yb
                se += (err ** 2).sum().item()
                ae += err.abs().sum().item()
                n += len(yb)
        accelerator.print(f"epoch {epoch} train_mse {loss.item():.4f} val_rmse {(se / n) ** 0.5:.4f} K "
                          f"val_mae {ae / n:.4f} K ({time.time() - t0:.0f}s)")


if __name__ == "__main__":
    main()
