"""Delivery-time regression (tabular MLP) with gradient accumulation to emulate a 1024 batch."""
import math

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)

N_FEATURES = 24
MICRO_BATCH = 128
ACCUM_STEPS = 8          # effective batch = 1024
EPOCHS = 6
LR = 0.01


def make_data(n):
    x = np.random.randn(n, N_FEATURES).astype(np.float32)
    w = np.linspace(-1.5, 1.5, N_FEATURES).astype(np.float32)
    y = x @ w + 0.5 * np.sin(3 * x[:, 0]) + 0.3 * x[:, 1] * x[:, 2] + 0.1 * np.random.randn(n).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(y).unsqueeze(1)


def build_model():
    return nn.Sequential(
        nn.Linear(N_FEATURES, 256), nn.ReLU(),
        nn.Linear(256, 256), nn.ReLU(),
        nn.Linear(256, 1),
    )


def evaluate(model, loader, loss_fn):
    model.eval()
    total, n = 0.0, 0
    with torch.no_grad():
        for xb, yb in loader:
            total += loss_fn(model(xb), yb).item() * len(xb)
            n += len(xb)
    return total / n


def main():
    x_tr, y_tr = make_data(65536)
    x_va, y_va = make_data(8192)
    mean, std = x_tr.mean(0), x_tr.std(0)
    x_tr, x_va = (x_tr - mean) / std, (x_va - mean) / std

    train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=MICRO_BATCH, shuffle=True, num_workers=2,
                          persistent_workers=True)
    val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=1024)

    model = build_model()
    loss_fn = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, nesterov=True)
    updates_per_epoch = math.ceil(len(train_dl) / ACCUM_STEPS)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=LR, epochs=EPOCHS,
                                                    steps_per_epoch=updates_per_epoch)

    print(f"micro-batches/epoch={len(train_dl)} optimizer updates/epoch={updates_per_epoch} "
          f"effective batch={MICRO_BATCH * ACCUM_STEPS}")
    print(f"baseline val MSE (predict mean): {y_va.var().item():.4f}")

    for epoch in range(EPOCHS):
        model.train()
        optimizer.zero_grad()
        running = 0.0
        for i, (xb, yb) in enumerate(train_dl):
            loss = loss_fn(model(xb), yb) / ACCUM_STEPS
            loss.backward()
            running += loss.item()
            if (i + 1) % ACCUM_STEPS == 0 or (i + 1) == len(train_dl):
                optimizer.step()
                scheduler.step()
                update = (i + 1) // ACCUM_STEPS
                if update % 8 == 0:
                    print(f"epoch {epoch} update {update:3d} train_mse {running:.4f} lr {scheduler.get_last_lr()[0]:.4f}")
                running = 0.0
        val = evaluate(model, val_dl, loss_fn)
        print(f"== epoch {epoch} val_mse {val:.4f}")


if __name__ == "__main__":
    main()
