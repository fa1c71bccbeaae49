import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_data(n, d, n_classes, seed):
    centers = np.random.default_rng(1234).normal(0, 1.0, size=(n_classes, d))
    g = np.random.default_rng(seed)
    y = g.integers(0, n_classes, size=n)
    x = centers[y] + g.normal(0, 1.0, size=(n, d))
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.long)


class MLP(nn.Module):
    def __init__(self, d_in, hidden, n_classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        return self.net(x)


def evaluate(model, loader, loss_fn):
    model.eval()
    total, correct, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for xb, yb in loader:
            logits = model(xb)
            loss_sum += loss_fn(logits, yb).item() * len(yb)
            correct += (logits.argmax(1) == yb).sum().item()
            total += len(yb)
    return loss_sum / total, correct / total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--bs", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.003)
    p.add_argument("--hidden", type=int, default=128)
    args = p.parse_args()
    torch.manual_seed(0)

    x_tr, y_tr = make_data(20000, 32, 10, seed=1)
    x_va, y_va = make_data(4000, 32, 10, seed=2)
    train_loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=args.bs, shuffle=True)
    val_loader = DataLoader(TensorDataset(x_va, y_va), batch_size=512)

    model = MLP(32, args.hidden, 10)
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    print(f"torch {torch.__version__} | params {sum(p.numel() for p in model.parameters())}")

    step = 0
    for epoch in range(args.epochs):
        model.train()
        t0 = time.time()
        running = 0.0
        for xb, yb in train_loader:
            logits = model(xb)
            loss = loss_fn(logits, yb)
            loss.backward()
            opt.step()
            running += loss.item()
            step += 1
            if step % 25 == 0:
                gnorm = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters())).item()
                print(f"epoch {epoch} step {step:5d} loss {running / 25:.4f} grad_norm {gnorm:.2f}")
                running = 0.0
        vl, va = evaluate(model, val_loader, loss_fn)
        print(f"== epoch {epoch} done in {time.time() - t0:.1f}s | val_loss {vl:.4f} val_acc {va:.4f}")


if __name__ == "__main__":
    main()
