"""Tabular churn classifier trained with Accelerate (CPU run for now)."""
import math
import time

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

N_TRAIN, N_VAL, N_FEAT = 8000, 2000, 32
EPOCHS = 6
BATCH = 128
LR = 0.02


def make_data(n, rng, w):
    x = rng.normal(size=(n, N_FEAT)).astype(np.float32)
    logits = x @ w + 0.5 * np.sin(3 * x[:, 0]) - 0.3 * x[:, 1] * x[:, 2]
    y = (logits + 0.3 * rng.normal(size=n) > 0).astype(np.int64)
    return torch.from_numpy(x), torch.from_numpy(y)


class ChurnNet(nn.Module):
    def __init__(self, d_in, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2),
        )

    def forward(self, x):
        return self.net(x)


def evaluate(model, loader, accelerator):
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    crit = nn.CrossEntropyLoss(reduction="sum")
    with torch.no_grad():
        for xb, yb in loader:
            out = model(xb)
            loss_sum += crit(out, yb).item()
            correct += (out.argmax(-1) == yb).sum().item()
            total += yb.numel()
    model.train()
    return loss_sum / total, correct / total


def main():
    set_seed(0)
    accelerator = Accelerator(cpu=True)
    rng = np.random.default_rng(0)
    w = rng.normal(size=N_FEAT).astype(np.float32) / math.sqrt(N_FEAT)
    xtr, ytr = make_data(N_TRAIN, rng, w)
    xva, yva = make_data(N_VAL, rng, w)
    train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(TensorDataset(xva, yva), batch_size=512)

    model = ChurnNet(N_FEAT)
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, weight_decay=1e-4)
    criterion = nn.CrossEntropyLoss()
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)

    accelerator.print(f"device={accelerator.device} train={N_TRAIN} val={N_VAL} "
                      f"steps/epoch={len(train_dl)} lr={LR}")
    model.train()
    optimizer.zero_grad()
    step = 0
    for epoch in range(EPOCHS):
        t0 = time.time()
        running = 0.0
        for xb, yb in train_dl:
            out = model(xb)
            loss = criterion(out, yb)
            accelerator.backward(loss)
            optimizer.step()
            running += loss.item()
            step += 1
            if step % 20 == 0:
                gn = math.sqrt(sum(p.grad.pow(2).sum().item() for p in model.parameters()))
                accelerator.print(f"  step {step:4d} loss {loss.item():.4f} grad_norm {gn:.3e}")
        val_loss, val_acc = evaluate(model, val_dl, accelerator)
        accelerator.print(f"epoch {epoch} train_loss {running / len(train_dl):.4f} "
                          f"val_loss {val_loss:.4f} val_acc {val_acc:.4f} ({time.time() - t0:.1f}s)")

    accelerator.save(accelerator.unwrap_model(model).state_dict(), "/tmp/churn_net.pt")


if __name__ == "__main__":
    main()
