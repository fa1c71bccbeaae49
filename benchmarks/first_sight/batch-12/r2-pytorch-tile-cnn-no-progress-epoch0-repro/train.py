"""Train a small CNN on synthetic 'satellite tile' patches.

Augmentation is expensive (multi-scale crops + noise per tile), so each
sample's crops are computed in parallel with a process pool.
"""
import multiprocessing as mp
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_TILES = 512
TILE = 64
N_CROPS = 4
CROP = 32
BATCH = 32
EPOCHS = 3
NUM_WORKERS = 2


def random_crop(args):
    tile, seed = args
    rng = np.random.default_rng(seed)
    y, x = rng.integers(0, TILE - CROP, size=2)
    crop = tile[:, y:y + CROP, x:x + CROP].copy()
    crop += rng.normal(0, 0.05, size=crop.shape).astype(np.float32)
    if rng.random() < 0.5:
        crop = crop[:, :, ::-1].copy()
    return crop


class TileDataset(Dataset):
    def __init__(self, n, seed=0):
        rng = np.random.default_rng(seed)
        self.tiles = rng.normal(size=(n, 3, TILE, TILE)).astype(np.float32)
        self.labels = rng.integers(0, 5, size=n)
        # make the label learnable: shift the mean of one channel per class
        for i, c in enumerate(self.labels):
            self.tiles[i, c % 3] += 0.5 * (c + 1) / 5
        # worker pool for the multi-crop augmentation
        self.pool = mp.Pool(processes=4)
        self.epoch = 0

    def __len__(self):
        return len(self.tiles)

    def __getitem__(self, idx):
        tile = self.tiles[idx]
        seeds = [hash((idx, self.epoch, k)) % (2**32) for k in range(N_CROPS)]
        crops = self.pool.map(random_crop, [(tile, s) for s in seeds])
        x = torch.from_numpy(np.stack(crops))          # (N_CROPS, 3, CROP, CROP)
        return x, int(self.labels[idx])


class SmallCNN(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 8 * 8, n_classes)

    def forward(self, x):
        b, k = x.shape[:2]
        x = x.flatten(0, 1)
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        logits = self.fc(x.flatten(1))
        return logits.view(b, k, -1).mean(1)          # average over crops


def main():
    torch.manual_seed(0)
    ds = TileDataset(N_TILES)
    loader = DataLoader(ds, batch_size=BATCH, shuffle=True, num_workers=NUM_WORKERS)
    model = SmallCNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"dataset: {len(ds)} tiles, {len(loader)} batches/epoch, num_workers={NUM_WORKERS}", flush=True)

    for epoch in range(EPOCHS):
        ds.epoch = epoch
        model.train()
        t0 = time.time()
        total, correct, loss_sum = 0, 0, 0.0
        print(f"epoch {epoch}: starting", flush=True)
        for step, (x, y) in enumerate(loader):
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item() * len(y)
            correct += (logits.argmax(1) == y).sum().item()
            total += len(y)
            if step % 4 == 0:
                print(f"  step {step:3d} loss {loss.item():.4f}", flush=True)
        print(f"epoch {epoch}: loss {loss_sum/total:.4f} acc {correct/total:.3f} "
              f"({time.time()-t0:.1f}s)", flush=True)
    torch.save(model.state_dict(), "tiles_cnn.pt")
    print("done")


if __name__ == "__main__":
    main()
