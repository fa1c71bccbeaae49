"""Road-marking arrow classifier for the lane-assist prototype.
Classes: turn_left, turn_right, straight, no_entry. 28x28 grayscale crops from
the dash-cam (synthetic renderer here), small CNN, Adam, light augmentation."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
S = 28
CLASSES = ["turn_left", "turn_right", "straight", "no_entry"]


def render(cls, rng):
    img = np.zeros((S, S), np.float32)
    cy, cx = S // 2 + rng.integers(-2, 3), S // 2 + rng.integers(-2, 3)
    L = rng.integers(7, 11)
    t = rng.integers(1, 3)
    if cls == 3:                                   # no_entry: filled disc with a bar
        yy, xx = np.mgrid[:S, :S]
        img[(yy - cy) ** 2 + (xx - cx) ** 2 <= (L + 1) ** 2] = 1.0
        img[cy - t:cy + t + 1, cx - L + 2:cx + L - 1] = 0.0
    else:
        img[cy - L:cy + L, cx - t:cx + t + 1] = 1.0   # vertical stem
        if cls == 2:                               # straight: head on top
            for k in range(5):
                img[cy - L + k, cx - k:cx + k + 1] = 1.0
        else:                                      # turn: horizontal bar + head at the end
            sign = -1 if cls == 0 else 1
            x_end = cx + sign * L
            lo, hi = sorted((cx, x_end))
            img[cy - L - t:cy - L + t + 1, lo:hi + 1] = 1.0
            for k in range(5):
                xk = x_end + sign * (4 - k) - sign * 4
                img[cy - L - k:cy - L + k + 1, np.clip(xk, 0, S - 1)] = 1.0
    img = img * rng.uniform(0.6, 1.0) + rng.normal(0, 0.15, (S, S))
    return img.astype(np.float32)


class Augment:
    """Cheap augmentations: random mirror, small shift, brightness jitter."""

    def __call__(self, x):
        if random.random() < 0.5:
            x = torch.flip(x, dims=[-1])
        x = torch.roll(x, shifts=(random.randint(-2, 2), random.randint(-2, 2)), dims=(-2, -1))
        return x * random.uniform(0.8, 1.2)


class MarkingDataset(Dataset):
    def __init__(self, n, seed, transform=None):
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 4, n)
        self.images = [torch.from_numpy(render(c, rng)).unsqueeze(0) for c in self.labels]
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        x = self.images[i]
        if self.transform is not None:
            x = self.transform(x)
        return x, int(self.labels[i])


class MarkingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 7 * 7, 64)
        self.fc2 = nn.Linear(64, len(CLASSES))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


def main():
    train_ds = MarkingDataset(2000, 1, transform=Augment())
    val_ds = MarkingDataset(600, 2)
    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=300)
    model = MarkingNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(8):
        model.train()
        tot, n = 0.0, 0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
            n += len(yb)
        model.eval()
        correct, vloss = 0, 0.0
        with torch.no_grad():
            for xb, yb in val_dl:
                out = model(xb)
                vloss += F.cross_entropy(out, yb, reduction="sum").item()
                correct += (out.argmax(1) == yb).sum().item()
        print(f"epoch {epoch:2d} train_loss {tot / n:.4f} val_loss {vloss / len(val_ds):.4f} "
              f"val_acc {correct / len(val_ds):.3f}")
    preds = torch.cat([model(xb).argmax(1) for xb, _ in val_dl])
    labels = torch.as_tensor(val_ds.labels)
    for c, name in enumerate(CLASSES):
        sel = labels == c
        print(f"  {name:<10s} val_acc {(preds[sel] == c).float().mean().item():.3f}")
    torch.save(model.state_dict(), "/tmp/marking_net.pt")


if __name__ == "__main__":
    main()
