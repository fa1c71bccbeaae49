"""Chained-job training with Accelerate: each job runs a few epochs and auto-resumes from the last state."""
import argparse
import os
import re

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset
from transformers import get_cosine_schedule_with_warmup


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 48, generator=g)
    w1 = torch.randn(48, 64, generator=torch.Generator().manual_seed(11))
    w2 = torch.randn(64, 8, generator=torch.Generator().manual_seed(12))
    y = (torch.tanh(x @ w1 / 6) @ w2 + 0.3 * torch.randn(n, 8, generator=g)).argmax(1)
    return TensorDataset(x, y)


def latest_checkpoint(ckpt_root):
    if not os.path.isdir(ckpt_root):
        return None
    ckpts = [d for d in os.listdir(ckpt_root) if re.fullmatch(r"epoch_\d+", d)]
    if not ckpts:
        return None
    return os.path.join(ckpt_root, max(ckpts, key=lambda d: int(d.split("_")[1])))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--total-epochs", type=int, default=9)
    p.add_argument("--epochs-per-job", type=int, default=3)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--ckpt-root", default="runs/cls8")
    args = p.parse_args()

    accelerator = Accelerator(cpu=True)
    set_seed(0)
    train_ds, val_ds = make_data(16000, 0), make_data(4000, 1)
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1000)

    model = nn.Sequential(nn.Linear(48, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 8))
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    total_steps = args.total_epochs * len(train_dl)
    scheduler = get_cosine_schedule_with_warmup(optimizer, num_warmup_steps=int(0.1 * total_steps),
                                                num_training_steps=total_steps)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)

    start_epoch = 0
    ckpt = latest_checkpoint(args.ckpt_root)
    if ckpt is not None:
        accelerator.load_state(ckpt)
        start_epoch = int(ckpt.rsplit("_", 1)[1]) + 1
        accelerator.print(f"resumed from {ckpt}, starting at epoch {start_epoch}")
    else:
        accelerator.print(f"fresh start, {total_steps} total steps")

    end_epoch = min(start_epoch + args.epochs_per_job, args.total_epochs)
    for epoch in range(start_epoch, end_epoch):
        model.train()
        for step, (x, y) in enumerate(train_dl):
            loss = nn.functional.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            if step % 25 == 0:
                accelerator.print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f} "
                                  f"lr {scheduler.get_last_lr()[0]:.2e}")
        model.eval()
        correct = vloss = 0.0
        with torch.no_grad():
            for x, y in val_dl:
                out = model(x)
                vloss += nn.functional.cross_entropy(out, y, reduction="sum").item()
                correct += (out.argmax(1) == y).sum().item()
        accelerator.print(f"== epoch {epoch} val_loss {vloss / len(val_ds):.4f} "
                          f"val_acc {correct / len(val_ds):.4f}")
        accelerator.save_state(os.path.join(args.ckpt_root, f"epoch_{epoch}"))
    accelerator.print(f"job done at epoch {end_epoch - 1}")


if __name__ == "__main__":
    main()
