"""ResNet-ish classifier on 48x48 RGB crops stored as one uint8 .npy shard per split."""
import argparse
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

DATA_DIR = "data"


def build_shards(n_train=8000, n_classes=8):
    """One-time export (normally done by the preprocessing job)."""
    os.makedirs(DATA_DIR, exist_ok=True)
    if os.path.exists(f"{DATA_DIR}/train_x.npy"):
        return
    rng = np.random.default_rng(0)
    y = rng.integers(0, n_classes, n_train)
    base = rng.integers(0, 255, (n_classes, 3, 48, 48))
    x = np.clip(base[y] * 0.6 + rng.integers(0, 100, (n_train, 3, 48, 48)), 0, 255).astype(np.uint8)
    np.save(f"{DATA_DIR}/train_x.npy", x)
    np.save(f"{DATA_DIR}/train_y.npy", y.astype(np.int64))


class CropDataset(Dataset):
    def __init__(self, split, augment=True):
        self.x_path = f"{DATA_DIR}/{split}_x.npy"
        self.labels = np.load(f"{DATA_DIR}/{split}_y.npy")
        self.augment = augment
        self.mean = torch.tensor([0.5, 0.5, 0.5]).view(3, 1, 1)
        self.std = torch.tensor([0.25, 0.25, 0.25]).view(3, 1, 1)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        img = np.load(self.x_path)[idx]
        img = torch.from_numpy(img).float().div_(255)
        if self.augment and torch.rand(1).item() < 0.5:
            img = img.flip(-1)
        img = (img - self.mean) / self.std
        return img, int(self.labels[idx])


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.skip = nn.Conv2d(cin, cout, 1, stride, bias=False) if (cin != cout or stride != 1) else nn.Identity()

    def forward(self, x):
        h = F.relu(self.b1(self.c1(x)))
        return F.relu(self.b2(self.c2(h)) + self.skip(x))


def make_model(n_classes=8):
    return nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), Block(16, 32, 2), Block(32, 64, 2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, n_classes))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-steps", type=int, default=40)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--workers", type=int, default=0)
    args = ap.parse_args()
    build_shards()
    torch.manual_seed(0)

    ds = CropDataset("train")
    dl = DataLoader(ds, batch_size=args.bs, shuffle=True, num_workers=args.workers,
                    persistent_workers=args.workers > 0)
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    print(f"{len(ds)} samples, bs={args.bs}, workers={args.workers}, torch threads={torch.get_num_threads()}")

    step, seen, data_time, comp_time = 0, 0, 0.0, 0.0
    t_start = t_last = time.perf_counter()
    while step < args.max_steps:
        for x, y in dl:
            t_data = time.perf_counter()
            data_time += t_data - t_last
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            t_last = time.perf_counter()
            comp_time += t_last - t_data
            step += 1
            seen += len(y)
            if step % 10 == 0:
                el = t_last - t_start
                print(f"step {step:4d} loss {loss.item():.3f} | {seen / el:7.1f} img/s | "
                      f"data wait {data_time:6.1f}s compute {comp_time:6.1f}s")
            if step >= args.max_steps:
                break
    print(f"done: {seen} images in {time.perf_counter() - t_start:.1f}s")


if __name__ == "__main__":
    main()
