"""Classify defect type on grayscale inspection patches (32x32) with a small CNN."""
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

SEED = 2024
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)

N_CLASSES = 4          # ok, scratch, dent, stain
IMG = 32
MEAN, STD = 0.45, 0.22  # computed once over the training patches


def synth_patches(n, seed):
    """Stand-in for the camera export: uint8 patches with class-specific artefacts."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, N_CLASSES, n)
    x = rng.normal(115, 25, (n, IMG, IMG))
    yy, xx = np.mgrid[:IMG, :IMG]
    for i in range(n):
        cx, cy = rng.integers(8, IMG - 8, 2)
        if y[i] == 1:
            x[i, cy, max(0, cx - 6):cx + 6] += 90
        elif y[i] == 2:
            x[i][(yy - cy) ** 2 + (xx - cx) ** 2 < 20] -= 70
        elif y[i] == 3:
            x[i][(abs(yy - cy) < 4) & (abs(xx - cx) < 6)] += 50
    return np.clip(x, 0, 255).astype(np.uint8), y


class ToTensor:
    def __call__(self, img):
        return torch.from_numpy(img).float().div(255.0).unsqueeze(0)


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, t):
        return (t - self.mean) / self.std


class RandomHFlip:
    def __call__(self, t):
        return t.flip(-1) if random.random() < 0.5 else t


class RandomGamma:
    """Simulate exposure changes of the line camera."""

    def __init__(self, gamma_range=(0.7, 1.5), p=0.02):
        self.gamma_range, self.p = gamma_range, p

    def __call__(self, t):
        if random.random() < self.p:
            t = t.pow(random.uniform(*self.gamma_range))
        return t


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


class PatchDataset(Dataset):
    def __init__(self, images, labels, transform):
        self.images, self.labels, self.transform = images, labels, transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.transform(self.images[i]), int(self.labels[i])


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, N_CLASSES))


def main():
    xtr, ytr = synth_patches(2000, seed=1)
    xva, yva = synth_patches(400, seed=2)
    train_tf = Compose([ToTensor(), Normalize(MEAN, STD), RandomHFlip(), RandomGamma()])
    eval_tf = Compose([ToTensor(), Normalize(MEAN, STD)])
    train_dl = DataLoader(PatchDataset(xtr, ytr, train_tf), batch_size=32, shuffle=True)
    val_dl = DataLoader(PatchDataset(xva, yva, eval_tf), batch_size=128)

    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    crit = nn.CrossEntropyLoss()
    step = 0
    for epoch in range(3):
        model.train()
        for x, y in train_dl:
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 5 == 0 or step < 5:
                print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f}")
            step += 1
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val_dl:
                correct += (model(x).argmax(1) == y).sum().item()
        print(f"epoch {epoch} val acc {correct / len(yva):.4f}")


if __name__ == "__main__":
    main()
