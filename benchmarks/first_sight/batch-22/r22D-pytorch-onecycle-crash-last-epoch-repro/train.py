"""1D-CNN classifier for accelerometer windows (synthetic stand-in), OneCycle schedule."""
import math
import os
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CFG = dict(n_train=6_000, n_val=2_000, window=128, n_classes=5,
           batch_size=128, epochs=6, max_lr=3e-3, ckpt_dir="checkpoints/har-cnn")


class SensorWindows(Dataset):
    def __init__(self, n, window, n_classes, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, n_classes, (n,), generator=g)
        t = torch.linspace(0, 1, window)
        freq = (self.y.float() + 1.0).unsqueeze(1) * 3.0
        phase = torch.rand(n, 1, generator=g) * 2 * math.pi
        sig = torch.sin(2 * math.pi * freq * t + phase)
        self.x = (sig + 2.5 * torch.randn(n, window, generator=g)).unsqueeze(1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Net(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(64, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.head = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def main(cfg):
    torch.manual_seed(0)
    os.makedirs(cfg["ckpt_dir"], exist_ok=True)
    train_ds = SensorWindows(cfg["n_train"], cfg["window"], cfg["n_classes"], seed=0)
    val_ds = SensorWindows(cfg["n_val"], cfg["window"], cfg["n_classes"], seed=1)
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = Net(cfg["n_classes"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["max_lr"], weight_decay=1e-2)
    steps_per_epoch = len(train_ds) // cfg["batch_size"]
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg["max_lr"], epochs=cfg["epochs"],
                                                steps_per_epoch=steps_per_epoch, pct_start=0.3)
    print(f"torch {torch.__version__}; {steps_per_epoch} steps/epoch x {cfg['epochs']} epochs")

    for epoch in range(cfg["epochs"]):
        model.train()
        t0, tot = time.time(), 0.0
        for i, (x, y) in enumerate(train_dl):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val_dl:
                correct += (model(x).argmax(1) == y).sum().item()
        print(f"epoch {epoch} loss {tot / (i + 1):.4f} val_acc {correct / len(val_ds):.4f} "
              f"lr {sched.get_last_lr()[0]:.2e} ({time.time() - t0:.1f}s)")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                    "sched": sched.state_dict(), "epoch": epoch},
                   os.path.join(cfg["ckpt_dir"], "last.pt"))


if __name__ == "__main__":
    main(CFG)
