"""Train a small CNN on image crops exported to a single .npz archive."""
import os
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

DATA = "crops_train.npz"
BATCH = 64
LOG_EVERY = 1
MAX_STEPS = 24


def export_crops(path, n=4000):
    """Stand-in for the export job: 4000 RGB 32x32 crops + labels."""
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 10, n)
    images = rng.normal(0, 1, (n, 3, 32, 32)).astype(np.float32)
    images += labels[:, None, None, None].astype(np.float32) * 0.05
    np.savez(path, images=images, labels=labels)


class CropDataset(Dataset):
    def __init__(self, path):
        self.path = path
        with np.load(path) as f:
            self.n = len(f["labels"])
        self.data = None  # opened lazily, once per worker process

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        if self.data is None:
            self.data = np.load(self.path)
        img = self.data["images"][idx]
        label = self.data["labels"][idx]
        img = torch.from_numpy(img)
        if np.random.rand() < 0.5:
            img = img.flip(-1)
        return img, int(label)


def main():
    torch.manual_seed(0)
    if not os.path.exists(DATA):
        export_crops(DATA)
    print(f"{DATA}: {os.path.getsize(DATA) / 1e6:.1f} MB")
    ds = CropDataset(DATA)
    dl = DataLoader(ds, batch_size=BATCH, shuffle=True, num_workers=2, persistent_workers=True)
    print(f"samples {len(ds)}, batch {BATCH}, steps/epoch {len(dl)}, workers 2, torch threads {torch.get_num_threads()}")

    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 8 * 8, 128), nn.ReLU(), nn.Linear(128, 10),
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    crit = nn.CrossEntropyLoss()

    model.train()
    t_start = time.time()
    t_prev = time.time()
    for step, (x, y) in enumerate(dl, 1):
        t_data = time.time() - t_prev
        t0 = time.time()
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        t_compute = time.time() - t0
        if step % LOG_EVERY == 0 or step == 1:
            step_time = t_data + t_compute
            eta = (len(dl) - step) * (time.time() - t_start) / step
            print(f"step {step:3d}/{len(dl)} | loss {loss.item():.4f} | data {t_data:.3f}s | "
                  f"compute {t_compute:.3f}s | step {step_time:.3f}s | {BATCH / step_time:6.1f} img/s | "
                  f"epoch ETA {eta / 60:.1f} min", flush=True)
        if step == MAX_STEPS:
            break
        t_prev = time.time()
    elapsed = time.time() - t_start
    print(f"{MAX_STEPS} steps in {elapsed:.1f}s -> {MAX_STEPS * BATCH / elapsed:.1f} img/s")


if __name__ == "__main__":
    main()
