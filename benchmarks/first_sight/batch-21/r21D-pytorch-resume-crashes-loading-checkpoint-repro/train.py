"""Tabular MLP trainer with auto-resume from the latest checkpoint (for preemptible CPU nodes)."""
import argparse
import glob
import os

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--ckpt-dir", default="checkpoints")
    return p.parse_args()


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(12000, 20)).astype(np.float32)
    w = rng.normal(size=20)
    y = ((X @ w + 0.5 * rng.normal(size=12000)) > 0).astype(np.int64)
    return X, y


def evaluate(model, dl):
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in dl:
            correct += (model(xb).argmax(1) == yb).sum().item()
    return correct / len(dl.dataset)


def main():
    args = get_args()
    torch.manual_seed(0)
    os.makedirs(args.ckpt_dir, exist_ok=True)
    X, y = make_data()
    tr = TensorDataset(torch.from_numpy(X[:10000]), torch.from_numpy(y[:10000]))
    va = TensorDataset(torch.from_numpy(X[10000:]), torch.from_numpy(y[10000:]))
    train_dl = DataLoader(tr, batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(va, batch_size=1024)

    model = nn.Sequential(nn.Linear(20, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 2))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    start_epoch, best_acc = 0, 0.0

    ckpts = sorted(glob.glob(os.path.join(args.ckpt_dir, "epoch_*.pt")))
    if ckpts:
        print(f"resuming from {ckpts[-1]}")
        state = torch.load(ckpts[-1])
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["scheduler"])
        start_epoch = state["epoch"] + 1
        best_acc = state["best_acc"]
        print(f"resumed at epoch {start_epoch}, best_acc so far {best_acc:.4f}")

    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(start_epoch, args.epochs):
        model.train()
        losses = []
        for xb, yb in train_dl:
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        sched.step()
        acc = evaluate(model, val_dl)
        best_acc = max(best_acc, acc)
        print(f"epoch {epoch} loss {np.mean(losses):.4f} val_acc {acc:.4f} lr {sched.get_last_lr()[0]:.1e}")
        torch.save({
            "model": model.state_dict(),
            "optimizer": opt.state_dict(),
            "scheduler": sched.state_dict(),
            "epoch": epoch,
            "best_acc": best_acc,
            "args": args,
        }, os.path.join(args.ckpt_dir, f"epoch_{epoch:03d}.pt"))


if __name__ == "__main__":
    main()
