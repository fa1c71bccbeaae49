"""Electricity load forecasting (next-hour kW from the last 24 h), trained with Accelerate.
Checkpoints every epoch so the job can be resumed after a preemption; keep only the last 3.
"""
import math
import os

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import ProjectConfiguration, set_seed
from torch.utils.data import DataLoader, TensorDataset

OUT_DIR = "runs/load_forecast"
LOOKBACK = 24
EPOCHS = 4


def synthetic_load(hours=24 * 365):
    t = torch.arange(hours, dtype=torch.float32)
    daily = 0.8 * torch.sin(2 * math.pi * t / 24 - 1.2)
    weekly = 0.3 * torch.sin(2 * math.pi * t / (24 * 7))
    return 3.0 + daily + weekly + 0.1 * torch.randn(hours)


def windows(series):
    x = series.unfold(0, LOOKBACK + 1, 1)
    return x[:, :LOOKBACK], x[:, LOOKBACK:]


def main():
    set_seed(7)
    project_config = ProjectConfiguration(automatic_checkpoint_naming=True, total_limit=3)
    accelerator = Accelerator(project_config=project_config)

    series = synthetic_load()
    mean, std = series.mean(), series.std()
    series = (series - mean) / std
    x, y = windows(series)
    split = int(0.9 * len(x))
    train_dl = DataLoader(TensorDataset(x[:split], y[:split]), batch_size=128, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[split:], y[split:]), batch_size=512)

    model = nn.Sequential(nn.Linear(LOOKBACK, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=EPOCHS * len(train_dl))
    model, optimizer, train_dl, val_dl, scheduler = accelerator.prepare(
        model, optimizer, train_dl, val_dl, scheduler)
    os.makedirs(OUT_DIR, exist_ok=True)
    accelerator.print(f"train windows {split}, val windows {len(x) - split}, steps/epoch {len(train_dl)}")

    for epoch in range(EPOCHS):
        model.train()
        for step, (xb, yb) in enumerate(train_dl):
            loss = nn.functional.mse_loss(model(xb), yb)
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            if step % 20 == 0:
                accelerator.print(f"epoch {epoch} step {step:3d} mse {loss.item():.4f}")

        model.eval()
        se, n = 0.0, 0
        with torch.no_grad():
            for xb, yb in val_dl:
                pred, yb = accelerator.gather_for_metrics((model(xb), yb))
                se += ((pred - yb) ** 2).sum().item()
                n += yb.numel()
        rmse_kw = math.sqrt(se / n) * std.item()
        accelerator.print(f"epoch {epoch} val_rmse {rmse_kw:.3f} kW")

        accelerator.save_state(os.path.join(OUT_DIR, f"epoch_{epoch}"))
        accelerator.print(f"saved checkpoint for epoch {epoch}")


if __name__ == "__main__":
    main()
