"""Tissue-patch classifier: small CNN on 32x32 RGB patches with random-crop augmentation."""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

CLASSES = ["stroma", "tumor", "lymph", "debris"]


def load_slides(n_patches, seed):
    """Stand-in for the patch extraction step: uint8 RGB patches of 40x40 with a label each."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(CLASSES), n_patches)
    base = np.array([[200, 120, 160], [120, 40, 110], [60, 40, 150], [220, 210, 200]], dtype=np.float32)
    imgs = base[labels][:, None, None, :] + rng.normal(0, 25, (n_patches, 40, 40, 3))
    return np.clip(imgs, 0, 255).astype(np.uint8), labels


class PatchDataset(Dataset):
    """Each slide patch is seen `repeats` times per epoch with a different random crop."""

    def __init__(self, images, labels, repeats=4, crop=32, mean=None, std=None):
        self.images = images
        self.labels = labels
        self.repeats = repeats
        self.crop = crop
        self.mean = mean
        self.std = std

    def __len__(self):
        return len(self.images) * self.repeats

    def __getitem__(self, idx):
        i = idx % len(self.images)
        img = torch.from_numpy(self.images[i]).permute(2, 0, 1).float() / 255.0
        top, left = np.random.randint(0, img.shape[1] - self.crop + 1, size=2)
        img = img[:, top:top + self.crop, left:left + self.crop]
        if self.mean is not None:
            img = (img - self.mean[:, None, None]) / self.std[:, None, None]
        return img, int(self.labels[i])


def channel_stats(ds):
    """Per-channel mean/std over the training patches (for normalisation)."""
    s = torch.zeros(3)
    s2 = torch.zeros(3)
    n = 0
    for img, _ in ds:
        s += img.sum(dim=(1, 2))
        s2 += (img ** 2).sum(dim=(1, 2))
        n += img.shape[1] * img.shape[2]
    mean = s / n
    std = (s2 / n - mean ** 2).sqrt()
    return mean, std


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 8 * 8, len(CLASSES))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    tr_img, tr_lab = load_slides(3000, seed=1)
    va_img, va_lab = load_slides(600, seed=2)
    print(f"train patches: {len(tr_img)}  val patches: {len(va_img)}", flush=True)

    t0 = time.time()
    print("computing channel statistics on the training set ...", flush=True)
    mean, std = channel_stats(PatchDataset(tr_img, tr_lab, repeats=1))
    print(f"mean={mean.tolist()} std={std.tolist()} ({time.time() - t0:.1f}s)", flush=True)

    train_ds = PatchDataset(tr_img, tr_lab, repeats=4, mean=mean, std=std)
    val_ds = PatchDataset(va_img, va_lab, repeats=1, mean=mean, std=std)
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(3):
        model.train()
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            correct = sum((model(x).argmax(1) == y).sum().item() for x, y in val_dl)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {correct / len(val_ds):.3f}", flush=True)


if __name__ == "__main__":
    main()
