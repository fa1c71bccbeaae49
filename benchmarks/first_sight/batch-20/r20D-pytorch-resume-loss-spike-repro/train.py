"""Tabular classifier with warmup + linear-decay schedule and preemption-safe checkpointing."""
import argparse
import math
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=12)
p.add_argument("--batch-size", type=int, default=128)
p.add_argument("--lr", type=float, default=1e-2)
p.add_argument("--warmup-steps", type=int, default=300)
p.add_argument("--ckpt", default="checkpoints/last.pt")
p.add_argument("--resume", action="store_true")
p.add_argument("--stop-after-epoch", type=int, default=None, help="for testing preemption")
args = p.parse_args()
print("args:", vars(args), flush=True)

torch.set_num_threads(2)
torch.manual_seed(0)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(16, 32, generator=torch.Generator().manual_seed(123)) * 0.6
    y = torch.randint(0, 16, (n,), generator=g)
    x = centers[y] + torch.randn(n, 32, generator=g)
    x = torch.cat([x, torch.tanh(x[:, :8] * x[:, 8:16])], dim=1)
    return x, y


x_tr, y_tr = make_data(20000, 1)
x_va, y_va = make_data(4000, 2)
train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=args.batch_size, shuffle=True,
                      generator=torch.Generator().manual_seed(7))
val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=1024)

model = nn.Sequential(nn.Linear(40, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(),
                      nn.Linear(256, 16))
optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
total_steps = args.epochs * len(train_dl)


def lr_lambda(step):
    if step < args.warmup_steps:
        return step / args.warmup_steps
    return max(0.0, (total_steps - step) / (total_steps - args.warmup_steps))


scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)

start_epoch, global_step = 0, 0
if args.resume and os.path.exists(args.ckpt):
    ckpt = torch.load(args.ckpt)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    start_epoch = ckpt["epoch"] + 1
    global_step = ckpt["global_step"]
    torch.set_rng_state(ckpt["rng"])
    print(f"resumed from {args.ckpt} at epoch {start_epoch} (global_step {global_step})", flush=True)


@torch.no_grad()
def evaluate():
    model.eval()
    loss_sum, correct = 0.0, 0
    for xb, yb in val_dl:
        logits = model(xb)
        loss_sum += F.cross_entropy(logits, yb, reduction="sum").item()
        correct += (logits.argmax(1) == yb).sum().item()
    model.train()
    return loss_sum / len(val_dl.dataset), correct / len(val_dl.dataset)


for epoch in range(start_epoch, args.epochs):
    t0 = time.time()
    model.train()
    running = 0.0
    for i, (xb, yb) in enumerate(train_dl):
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        scheduler.step()
        global_step += 1
        running += loss.item()
        if global_step % 50 == 0:
            print(f"step {global_step:5d} | loss {loss.item():.4f} | lr {scheduler.get_last_lr()[0]:.2e}",
                  flush=True)
    val_loss, val_acc = evaluate()
    print(f"epoch {epoch} | train_loss {running / len(train_dl):.4f} | val_loss {val_loss:.4f} | "
          f"val_acc {val_acc:.4f} | {time.time() - t0:.1f}s", flush=True)
    os.makedirs(os.path.dirname(args.ckpt), exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch, "global_step": global_step, "rng": torch.get_rng_state()}, args.ckpt)
    if args.stop_after_epoch is not None and epoch == args.stop_after_epoch:
        print(f"stopping after epoch {epoch} (simulated preemption)", flush=True)
        break

print(f"final val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
