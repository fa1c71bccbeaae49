import argparse
import os

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--batch_size", type=int, default=128)
parser.add_argument("--ckpt_dir", default="checkpoints")
parser.add_argument("--resume", default=None)
args = parser.parse_args()


def get_data(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(8000, 32, generator=g)
    y = (x[:, :4].sum(1) > 0).long()
    return TensorDataset(x, y)


def main():
    torch.manual_seed(0)
    train_loader = DataLoader(get_data(0), batch_size=args.batch_size, shuffle=True)
    val_x, val_y = get_data(1).tensors

    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    start_epoch, best_acc = 0, 0.0

    if args.resume:
        print(f"resuming from {args.resume}")
        ckpt = torch.load(args.resume)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch = ckpt["epoch"] + 1
        best_acc = ckpt["best_acc"]
        print(f"resumed at epoch {start_epoch}, best_acc {best_acc:.4f}")

    os.makedirs(args.ckpt_dir, exist_ok=True)
    for epoch in range(start_epoch, start_epoch + args.epochs):
        model.train()
        for x, y in train_loader:
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            acc = (model(val_x).argmax(1) == val_y).float().mean().numpy()
        best_acc = max(best_acc, acc)
        print(f"epoch {epoch} | loss {loss.item():.4f} | val_acc {acc:.4f} | best {best_acc:.4f}")
        torch.save({
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "epoch": epoch,
            "best_acc": best_acc,
            "args": args,
        }, os.path.join(args.ckpt_dir, "last.pt"))


if __name__ == "__main__":
    main()
