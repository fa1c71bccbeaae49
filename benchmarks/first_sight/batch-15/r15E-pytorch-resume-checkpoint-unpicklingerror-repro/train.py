import argparse
import os
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    w = torch.linspace(-1, 1, 20)
    y = (x @ w + 0.3 * torch.sin(3 * x[:, 0]) + 0.1 * torch.randn(n, generator=g)).unsqueeze(1)
    return TensorDataset(x, y)


def build_model():
    return nn.Sequential(nn.Linear(20, 128), nn.GELU(), nn.Linear(128, 128), nn.GELU(),
                         nn.Linear(128, 1))


def evaluate(model, loader):
    model.eval()
    losses = []
    with torch.no_grad():
        for x, y in loader:
            losses.append(nn.functional.mse_loss(model(x), y).item())
    model.train()
    return np.mean(losses)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--ckpt-dir", default="checkpoints")
    ap.add_argument("--resume", default=None)
    args = ap.parse_args()
    set_seed(0)
    os.makedirs(args.ckpt_dir, exist_ok=True)

    train_loader = DataLoader(make_data(20000, 1), batch_size=128, shuffle=True)
    val_loader = DataLoader(make_data(2000, 2), batch_size=512)
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)

    start_epoch, best_val = 0, float("inf")
    if args.resume:
        print(f"resuming from {args.resume}")
        ckpt = torch.load(args.resume)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        scheduler.load_state_dict(ckpt["scheduler"])
        start_epoch, best_val = ckpt["epoch"] + 1, ckpt["best_val"]
        np.random.set_state(ckpt["numpy_rng"])
        torch.set_rng_state(ckpt["torch_rng"])
        print(f"resumed at epoch {start_epoch}, best_val={best_val:.4f}")

    for epoch in range(start_epoch, args.epochs):
        for x, y in train_loader:
            loss = nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        val = evaluate(model, val_loader)
        best_val = min(best_val, val)
        print(f"epoch {epoch} train_loss {loss.item():.4f} val_mse {val:.4f} best {best_val:.4f}",
              flush=True)
        torch.save({
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "epoch": epoch,
            "best_val": best_val,
            "numpy_rng": np.random.get_state(),
            "torch_rng": torch.get_rng_state(),
        }, os.path.join(args.ckpt_dir, "last.pt"))
        if epoch == 2 and not args.resume:
            print("(job preempted)")
            break


if __name__ == "__main__":
    main()
