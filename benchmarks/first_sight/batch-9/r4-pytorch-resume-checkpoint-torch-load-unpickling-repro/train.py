import argparse
import os
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--ckpt-dir", default="checkpoints")
    p.add_argument("--resume", default="")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def load_data(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(12000, 24)).astype(np.float32)
    w = rng.normal(size=24)
    logits = X @ w * 0.6 + 0.8 * np.sin(X[:, 0] * 2) - 0.5
    y = (rng.random(12000) < 1 / (1 + np.exp(-logits))).astype(np.float32)
    mean, std = X[:10000].mean(0), X[:10000].std(0)
    X = (X - mean) / std
    return (X[:10000], y[:10000]), (X[10000:], y[10000:]), (mean, std)


def build_model():
    return nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Dropout(0.1),
                         nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))


def evaluate(model, X, y):
    model.eval()
    with torch.no_grad():
        logits = model(torch.from_numpy(X)).squeeze(1)
        loss = nn.functional.binary_cross_entropy_with_logits(logits, torch.from_numpy(y)).item()
        acc = ((logits > 0).float().numpy() == y).mean()
    model.train()
    return loss, acc


def save_checkpoint(path, model, opt, sched, epoch, best_acc, args, norm):
    torch.save({
        "epoch": epoch,
        "model": model.state_dict(),
        "optimizer": opt.state_dict(),
        "scheduler": sched.state_dict(),
        "best_acc": best_acc,
        "args": args,
        "norm_stats": norm,
    }, path)


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    (Xtr, ytr), (Xva, yva), norm = load_data(args.seed)
    loader = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                        batch_size=args.batch_size, shuffle=True)
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    start_epoch, best_acc = 0, 0.0

    if args.resume:
        print(f"=> resuming from {args.resume}")
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optimizer"])
        sched.load_state_dict(ckpt["scheduler"])
        start_epoch, best_acc = ckpt["epoch"] + 1, ckpt["best_acc"]
        print(f"=> resumed at epoch {start_epoch}, best_acc {best_acc:.4f}")

    os.makedirs(args.ckpt_dir, exist_ok=True)
    for epoch in range(start_epoch, args.epochs):
        t0, tot = time.time(), 0.0
        for xb, yb in loader:
            loss = nn.functional.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        sched.step()
        val_loss, val_acc = evaluate(model, Xva, yva)
        print(f"epoch {epoch} train_loss {tot / len(Xtr):.4f} val_loss {val_loss:.4f} val_acc {val_acc:.4f} "
              f"lr {sched.get_last_lr()[0]:.2e} ({time.time() - t0:.1f}s)")
        save_checkpoint(os.path.join(args.ckpt_dir, "last.pt"), model, opt, sched, epoch, best_acc, args, norm)
        if val_acc > best_acc:
            best_acc = val_acc
            save_checkpoint(os.path.join(args.ckpt_dir, "best.pt"), model, opt, sched, epoch, best_acc, args, norm)
        if os.environ.get("STOP_AFTER_EPOCH") == str(epoch):
            print("preempted, exiting")
            return


if __name__ == "__main__":
    main()
