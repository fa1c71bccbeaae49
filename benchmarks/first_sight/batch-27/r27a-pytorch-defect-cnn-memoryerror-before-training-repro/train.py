"""Surface-defect patch classifier. Patches were exported by the labelling pipeline to
data/patches_u8.npy (N x 3 x 64 x 64 uint8, ~2.9 GB) and data/labels.npy.
"""
import resource
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

BATCH, LR, MAX_STEPS, VAL_FRAC = 128, 1e-3, 100, 0.1
MEAN, STD = 100.0, 45.0


def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Patches(Dataset):
    def __init__(self, images, labels):
        self.images, self.labels = images, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        x = torch.from_numpy(np.asarray(self.images[i], dtype=np.float32))
        return (x - MEAN) / STD, int(self.labels[i])


def small_cnn(n_classes):
    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout),
                             nn.ReLU(), nn.MaxPool2d(2))
    return nn.Sequential(block(3, 32), block(32, 64), block(64, 96), block(96, 128),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, n_classes))


def main():
    torch.manual_seed(0)
    images = np.load("data/patches_u8.npy", mmap_mode="r")
    labels = np.load("data/labels.npy")
    n_classes = int(labels.max()) + 1
    print(f"images {images.shape} {images.dtype} ({images.nbytes / 2**30:.2f} GiB on disk), "
          f"{n_classes} classes, rss={rss_mb():.0f} MB")

    perm = np.random.default_rng(0).permutation(len(labels))
    n_val = int(VAL_FRAC * len(labels))
    val_idx, train_idx = perm[:n_val], perm[n_val:]
    train_ds = Patches(images[train_idx], labels[train_idx])
    val_ds = Patches(images[val_idx[:5000]], labels[val_idx[:5000]])
    print(f"train={len(train_ds)} val={len(val_ds)} rss={rss_mb():.0f} MB")

    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True, num_workers=2)
    val_dl = DataLoader(val_ds, batch_size=256, num_workers=2)
    model = small_cnn(n_classes)
    opt = torch.optim.AdamW(model.parameters(), lr=LR)

    step, t0 = 0, time.time()
    model.train()
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 25 == 0:
            print(f"step {step} loss {loss.item():.4f} {step * BATCH / (time.time() - t0):.0f} img/s "
                  f"rss={rss_mb():.0f} MB")
        if step == MAX_STEPS:
            break
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_dl:
            correct += (model(xb).argmax(1) == yb).sum().item()
    print(f"val_acc={correct / len(val_ds):.4f}")
    torch.save(model.state_dict(), "defect_cnn.pt")


if __name__ == "__main__":
    main()
