import math
import time

import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_housing(n, gen):
    """Synthetic house-price style regression with 16 standardized features."""
    x = torch.randn(n, 16, generator=gen)
    w = torch.linspace(-1.0, 1.0, 16)
    y = x @ w + 0.5 * torch.sin(2 * x[:, 0]) * x[:, 1] + 0.3 * x[:, 2] ** 2 + 0.1 * torch.randn(n, generator=gen)
    return x, y.unsqueeze(1)


def main():
    accelerator = Accelerator(cpu=True)
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    xtr, ytr = make_housing(20000, gen)
    xva, yva = make_housing(2000, gen)
    train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=128, shuffle=True)
    val_dl = DataLoader(TensorDataset(xva, yva), batch_size=512)

    model = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)
    loss_fn = nn.MSELoss()

    accelerator.print(f"torch {torch.__version__} | device {accelerator.device} | steps/epoch {len(train_dl)}")
    for epoch in range(6):
        model.train()
        optimizer.zero_grad()
        t0 = time.time()
        total = 0.0
        for step, (x, y) in enumerate(train_dl):
            loss = loss_fn(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            total += loss.item()
            if step % 10 == 0:
                accelerator.print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f}")
            if not math.isfinite(loss.item()):
                accelerator.print("non-finite loss, stopping")
                return
        model.eval()
        with torch.no_grad():
            val = sum(loss_fn(model(x), y).item() * len(x) for x, y in val_dl) / len(xva)
        accelerator.print(f"epoch {epoch} train mse {total / len(train_dl):.4f} val mse {val:.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
