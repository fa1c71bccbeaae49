"""Land-cover patch classifier (small CNN on 8-band 32x32 satellite patches).

Runs on preemptible nodes: a checkpoint is written at the end of every epoch
and `--resume` continues from the last one.
"""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=12)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--ckpt", default="ckpt/last.pt")
p.add_argument("--resume", action="store_true")
p.add_argument("--stop-after", type=int, default=None, help="simulate preemption after N epochs")
args = p.parse_args()

torch.manual_seed(0)
gen = torch.Generator().manual_seed(5)
N, C = 6000, 6
y = torch.randint(0, C, (N,), generator=gen)
proto = torch.randn(C, 8, 1, 1, generator=gen)
x = proto[y] * torch.linspace(0.2, 1.0, 32).view(1, 1, 1, 32) + 6.0 * torch.randn(N, 8, 32, 32, generator=gen)
train_dl = DataLoader(TensorDataset(x[:5000], y[:5000]), batch_size=128, shuffle=True)
x_val, y_val = x[5000:], y[5000:]

model = nn.Sequential(
    nn.Conv2d(8, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(64, C),
)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)

start_epoch = 0
ckpt = None
if args.resume and os.path.exists(args.ckpt):
    ckpt = torch.load(args.ckpt)
    model.load_state_dict(ckpt["model"])
    start_epoch = ckpt["epoch"] + 1
    print(f"resuming from {args.ckpt} (finished epoch {ckpt['epoch']}, val_acc {ckpt['val_acc']:.4f})")

scheduler = torch.optim.lr_scheduler.MultiStepLR(
    optimizer, milestones=[6, 9], gamma=0.1, last_epoch=start_epoch - 1
)
if ckpt is not None:
    optimizer.load_state_dict(ckpt["optimizer"])

for epoch in range(start_epoch, args.epochs):
    model.train()
    t0, total = time.time(), 0.0
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    scheduler.step()
    model.eval()
    with torch.no_grad():
        acc = (model(x_val).argmax(1) == y_val).float().mean().item()
    print(f"epoch {epoch} lr {optimizer.param_groups[0]['lr']:.1e} loss {total / 5000:.4f} "
          f"val_acc {acc:.4f} ({time.time() - t0:.1f}s)", flush=True)
    os.makedirs(os.path.dirname(args.ckpt), exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch, "val_acc": acc}, args.ckpt)
    if args.stop_after is not None and epoch + 1 >= args.stop_after:
        print("preempted")
        break
