"""Small CNN for satellite tile classification (cloud / water / field / forest) with light augmentation."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CLASSES = ["cloud", "water", "field", "forest"]
MEAN = np.array([0.45, 0.47, 0.40], np.float32)
STD = np.array([0.22, 0.21, 0.23], np.float32)


def make_tiles(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(CLASSES), n)
    base = np.array([[0.9, 0.9, 0.9], [0.1, 0.2, 0.6], [0.6, 0.5, 0.2], [0.1, 0.4, 0.1]], np.float32)
    x = base[y][:, None, None, :] + 0.15 * rng.standard_normal((n, 48, 48, 3)).astype(np.float32)
    x[:, :, :24] += 0.1 * (y[:, None, None, None] % 2)
    return np.clip(x, 0, 1), y


class TileDataset(Dataset):
    def __init__(self, images, labels, train):
        # normalise once up front, stored channels-first
        self.images = ((images - MEAN) / STD).transpose(0, 3, 1, 2).copy()
        self.labels, self.train = labels, train
        self.rng = np.random.default_rng(1)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = self.images[i]
        if self.train:
            if self.rng.random() < 0.5:
                img = np.flip(img, axis=2)
            if self.rng.random() < 0.5:
                img = np.flip(img, axis=1)
        return torch.from_numpy(img), int(self.labels[i])


def main():
    xtr, ytr = make_tiles(3000, 0)
    xva, yva = make_tiles(1000, 1)
    train_dl = DataLoader(TileDataset(xtr, ytr, True), batch_size=64, shuffle=True, num_workers=2)
    val_dl = DataLoader(TileDataset(xva, yva, False), batch_size=256, num_workers=2)
    model = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(32, len(CLASSES)))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    print(f"train={len(xtr)} val={len(xva)} batches/epoch={len(train_dl)}", flush=True)
    for epoch in range(3):
        t0, model = time.time(), model.train()
        for step, (x, y) in enumerate(train_dl):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 30 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        model.eval(); correct = 0
        with torch.no_grad():
            for x, y in val_dl:
                correct += (model(x).argmax(1) == y).sum().item()
        print(f"epoch {epoch} val_acc {correct / len(xva):.3f} ({time.time() - t0:.1f}s)", flush=True)


if __name__ == "__main__":
    main()
