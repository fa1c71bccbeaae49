"""Food-plate semantic segmentation (104 ingredient classes) with Accelerate.

Targets use label smoothing, so the soft targets are precomputed once in the Dataset
instead of being rebuilt every step.
"""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset

NUM_CLASSES = 104          # 103 ingredients + background
IMG = 96
N_TRAIN, N_VAL = 400, 64
SMOOTHING = 0.1


def synth_plate(rng):
    """Stand-in for one FoodSeg image/mask pair: a few ingredient blobs on a plate."""
    yy, xx = np.mgrid[:IMG, :IMG]
    mask = np.zeros((IMG, IMG), dtype=np.int64)
    img = rng.normal(0.5, 0.05, size=(3, IMG, IMG)).astype(np.float32)
    for cls in rng.choice(np.arange(1, NUM_CLASSES), size=5, replace=False):
        cy, cx, r = rng.integers(16, IMG - 16), rng.integers(16, IMG - 16), rng.integers(6, 18)
        blob = (yy - cy) ** 2 + (xx - cx) ** 2 < r ** 2
        mask[blob] = cls
        colour = np.array([(cls * 37 % 101) / 100, (cls * 53 % 97) / 96, (cls * 71 % 89) / 88])
        img[:, blob] = colour[:, None] + rng.normal(0, 0.05, size=(3, blob.sum()))
    return img, mask


def smooth_one_hot(mask, n_classes, eps):
    onehot = F.one_hot(mask, n_classes).permute(2, 0, 1).float()     # (C, H, W)
    return onehot * (1.0 - eps) + eps / n_classes


class FoodSeg(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.images, self.masks, self.targets = [], [], []
        t0 = time.time()
        for i in range(n):
            img, mask = synth_plate(rng)
            mask = torch.from_numpy(mask)
            self.images.append(torch.from_numpy(img))
            self.masks.append(mask)
            self.targets.append(smooth_one_hot(mask, NUM_CLASSES, SMOOTHING))
            if (i + 1) % 80 == 0:
                print(f"  prepared {i + 1}/{n} samples ({time.time() - t0:.1f}s)", flush=True)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.targets[i], self.masks[i]


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class TinyUNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.e1, self.e2 = block(3, 16), block(16, 32)
        self.mid = block(32, 32)
        self.d1 = block(64, 16)
        self.head = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        s1 = self.e1(x)                                  # 128
        s2 = self.e2(F.max_pool2d(s1, 2))                # 64
        m = self.mid(F.max_pool2d(s2, 2))                # 32
        u = F.interpolate(m, scale_factor=2, mode="bilinear", align_corners=False)
        u = self.d1(torch.cat([u, s2], 1))               # 64
        u = F.interpolate(u, scale_factor=2, mode="bilinear", align_corners=False)
        return self.head(torch.cat([u, s1], 1))          # 128


def soft_ce(logits, soft_targets):
    return -(soft_targets * F.log_softmax(logits, dim=1)).sum(1).mean()


def main():
    accelerator = Accelerator()
    torch.manual_seed(0)
    accelerator.print("preparing datasets ...")
    train_ds, val_ds = FoodSeg(N_TRAIN, seed=0), FoodSeg(N_VAL, seed=1)
    train_dl = DataLoader(train_ds, batch_size=16, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=16)
    model = TinyUNet(NUM_CLASSES)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)

    for epoch in range(1):
        model.train()
        for step, (x, soft_y, _) in enumerate(train_dl):
            loss = soft_ce(model(x), soft_y)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            if step % 10 == 0:
                accelerator.print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f}")
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for x, _, mask in val_dl:
                pred = model(x).argmax(1)
                pred, mask = accelerator.gather_for_metrics((pred, mask))
                correct += (pred == mask).sum().item()
                total += mask.numel()
        accelerator.print(f"epoch {epoch}: val pixel acc {correct / total:.4f}")


if __name__ == "__main__":
    main()
