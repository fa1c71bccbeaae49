"""Two-stage fine-tuning of the defect classifier.

stage 1: backbone frozen, train the new head only (warm-up)
stage 2: unfreeze everything, continue from the stage-1 checkpoint

usage:
  python train.py --stage 1 --epochs 3 --out ckpt/stage1.pt
  python train.py --stage 2 --epochs 5 --resume ckpt/stage1.pt --out ckpt/stage2.pt
"""
import argparse
import os
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--stage", type=int, choices=[1, 2], required=True)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--batch-size", type=int, default=64)
p.add_argument("--resume", type=str, default=None)
p.add_argument("--out", type=str, required=True)
args = p.parse_args()

torch.manual_seed(0)

# ---------------------------------------------------------------- data
N, D, C = 4096, 64, 5
g = torch.Generator().manual_seed(123)
X = torch.randn(N, D, generator=g)
W_true = torch.randn(D, C, generator=g)
y = (X @ W_true + 0.5 * torch.randn(N, C, generator=g)).argmax(1)
train_ds = TensorDataset(X[:3584], y[:3584])
val_ds = TensorDataset(X[3584:], y[3584:])
train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=256)


# ---------------------------------------------------------------- model
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Linear(D, 256), nn.ReLU(),
            nn.Linear(256, 256), nn.ReLU(),
            nn.Linear(256, 128), nn.ReLU(),
        )
        self.head = nn.Linear(128, C)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Net()

if args.stage == 1:
    for prm in model.backbone.parameters():
        prm.requires_grad = False
else:
    for prm in model.parameters():
        prm.requires_grad = True

params = [prm for prm in model.parameters() if prm.requires_grad]
optimizer = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs * len(train_dl))
criterion = nn.CrossEntropyLoss()
start_epoch = 0

if args.resume:
    print(f"=> resuming from {args.resume}")
    ckpt = torch.load(args.resume, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    scheduler.load_state_dict(ckpt["scheduler"])
    start_epoch = ckpt["epoch"] + 1
    print(f"=> loaded checkpoint (epoch {ckpt['epoch']}, val_acc {ckpt['val_acc']:.4f})")

print(f"stage {args.stage}: {sum(p_.numel() for p_ in params):,} trainable params, "
      f"{len(train_dl)} steps/epoch")


def evaluate():
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for xb, yb in val_dl:
            correct += (model(xb).argmax(1) == yb).sum().item()
            total += yb.numel()
    model.train()
    return correct / total


for epoch in range(start_epoch, start_epoch + args.epochs):
    t0 = time.time()
    running = 0.0
    for xb, yb in train_dl:
        loss = criterion(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        running += loss.item()
    val_acc = evaluate()
    print(f"epoch {epoch} | train_loss {running / len(train_dl):.4f} | val_acc {val_acc:.4f} "
          f"| lr {scheduler.get_last_lr()[0]:.2e} | {time.time() - t0:.1f}s")

os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(), "epoch": epoch, "val_acc": val_acc}, args.out)
print(f"saved {args.out}")
