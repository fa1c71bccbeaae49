"""Arrhythmia-type classifier on single-lead ECG windows (MLP baseline), trained with Accelerate.

Recipe from the image-classification baseline: SGD + momentum, lr 0.1 for a
global batch of 256, cosine decay.  The laptop only fits 16 windows per step,
so gradients are accumulated over 16 micro-batches to reach 256.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from accelerate import Accelerator
from accelerate.utils import set_seed

CFG = dict(
    micro_batch=16,
    accum_steps=16,          # 16 x 16 = 256 windows per optimizer update
    lr=0.1,                  # tuned for batch 256
    momentum=0.9,
    weight_decay=1e-4,
    epochs=6,
    n_train=6144,
    n_val=1024,
    win=256,
    n_classes=4,
)


class ECGWindows(Dataset):
    """Synthetic beats: class determines rhythm period and QRS width, plus baseline wander + noise."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, CFG["n_classes"], (n,), generator=g)
        t = torch.arange(CFG["win"], dtype=torch.float32)
        period = torch.tensor([60.0, 40.0, 85.0, 55.0])[self.y].unsqueeze(1)
        width = torch.tensor([3.0, 3.0, 3.0, 7.0])[self.y].unsqueeze(1)
        phase = torch.rand(n, 1, generator=g) * period
        d = torch.remainder(t.unsqueeze(0) - phase, period)
        qrs = torch.exp(-0.5 * ((d - period / 2) / width) ** 2)
        wander = 0.3 * torch.sin(2 * math.pi * t / 200 + torch.rand(n, 1, generator=g) * 6.28)
        self.x = (qrs + wander + 0.1 * torch.randn(n, CFG["win"], generator=g)).unsqueeze(1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class ECGNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(),
            nn.Linear(CFG["win"], 256), nn.GELU(),
            nn.Linear(256, 128), nn.GELU(),
            nn.Linear(128, n_classes),
        )

    def forward(self, x):
        return self.net(x)


def main():
    set_seed(0)
    accelerator = Accelerator()
    train_dl = DataLoader(ECGWindows(CFG["n_train"], 1), batch_size=CFG["micro_batch"], shuffle=True)
    val_dl = DataLoader(ECGWindows(CFG["n_val"], 2), batch_size=256)
    model = ECGNet(CFG["n_classes"])
    optimizer = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=CFG["momentum"],
                                weight_decay=CFG["weight_decay"])
    updates_per_epoch = len(train_dl) // CFG["accum_steps"]
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=CFG["epochs"] * updates_per_epoch)
    model, optimizer, train_dl, val_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, val_dl, scheduler)
    accelerator.print(f"micro-batch {CFG['micro_batch']} x accum {CFG['accum_steps']} = "
                      f"{CFG['micro_batch'] * CFG['accum_steps']} per update, {updates_per_epoch} updates/epoch")

    update = 0
    for epoch in range(CFG["epochs"]):
        model.train()
        window_loss = 0.0
        for i, (x, y) in enumerate(train_dl):
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            accelerator.backward(loss)
            window_loss += loss.item()
            if (i + 1) % CFG["accum_steps"] == 0:
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                update += 1
                if update % 4 == 0:
                    accelerator.print(f"epoch {epoch} update {update:3d} lr {scheduler.get_last_lr()[0]:.4f} "
                                      f"loss {window_loss / CFG['accum_steps']:.4f}")
                window_loss = 0.0
        model.eval()
        correct, total, vloss = 0, 0, 0.0
        with torch.no_grad():
            for x, y in val_dl:
                logits = model(x)
                vloss += F.cross_entropy(logits, y, reduction="sum").item()
                correct += (logits.argmax(-1) == y).sum().item()
                total += len(y)
        accelerator.print(f"epoch {epoch} | val loss {vloss / total:.4f} | val acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
