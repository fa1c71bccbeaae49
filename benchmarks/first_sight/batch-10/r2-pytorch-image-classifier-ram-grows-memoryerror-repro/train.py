"""Leaf-disease classifier: small CNN trained on random 64x64 crops of 256x256 photos."""
import functools
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
N_IMAGES = 12_000
N_CLASSES = 5
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024


_TEXTURE = np.random.default_rng(0).integers(0, 156, (256, 512, 3), dtype=np.uint8)


def read_jpeg(idx):
    """Stand-in for PIL.Image.open(path).convert('RGB'): a 256x256 uint8 photo."""
    off = (idx * 37) % 256
    img = _TEXTURE[:, off:off + 256].copy()
    img[..., idx % 3] += np.uint8(20 * (idx % N_CLASSES))   # stand-in for real leaf features
    return img


class LeafDataset(Dataset):
    def __init__(self, n):
        self.n = n
        self.labels = [i % N_CLASSES for i in range(n)]

    def __len__(self):
        return self.n

    @functools.lru_cache(maxsize=None)   # decoding is slow, only do it once per image
    def load(self, idx):
        img = torch.from_numpy(read_jpeg(idx)).permute(2, 0, 1).float() / 255.0
        return (img - MEAN) / STD

    def __getitem__(self, idx):
        x = self.load(idx)
        top, left = torch.randint(0, 256 - 64 + 1, (2,)).tolist()
        x = x[:, top:top + 64, left:left + 64]
        if torch.rand(1).item() < 0.5:
            x = x.flip(-1)
        return x, self.labels[idx]


model = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, N_CLASSES),
)
loader = DataLoader(LeafDataset(N_IMAGES), batch_size=64, shuffle=True, num_workers=0)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

print(f"{N_IMAGES} images, {len(loader)} batches/epoch, rss {rss_mb():.0f} MB", flush=True)
t0 = time.time()
for epoch in range(2):
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"epoch {epoch} step {step:3d}/{len(loader)} loss {loss.item():.4f} "
                  f"rss {rss_mb():.0f} MB  {time.time() - t0:.1f}s", flush=True)
