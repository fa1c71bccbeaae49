"""Crack segmentation on 32x32 grayscale inspection patches with a small conv net.

The target masks are very sparse, so we train directly on the Dice score
(same definition we report in the QA dashboard).
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(2)
torch.manual_seed(0)
rng = np.random.default_rng(0)
S = 32


def make_patch():
    img = rng.normal(0.5, 0.12, size=(S, S))
    mask = np.zeros((S, S), dtype=np.float32)
    for _ in range(rng.integers(1, 3)):            # 1-2 thin cracks (random walks)
        y, x = rng.integers(4, S - 4, size=2)
        for _ in range(rng.integers(12, 28)):
            mask[y, x] = 1
            img[y, x] -= rng.uniform(0.25, 0.4)
            y = int(np.clip(y + rng.integers(-1, 2), 0, S - 1))
            x = int(np.clip(x + rng.integers(0, 2), 0, S - 1))
    return img.astype(np.float32)[None], mask[None]


class CrackDataset(Dataset):
    def __init__(self, n):
        pairs = [make_patch() for _ in range(n)]
        self.x = np.stack([p[0] for p in pairs])
        self.y = np.stack([p[1] for p in pairs])

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.from_numpy(self.y[i])


class SegNet(nn.Module):
    def __init__(self, c=12):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=2, dilation=2), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, 1, 1),
        )

    def forward(self, x):
        return self.net(x)  # logits


def dice_loss(logits, target, eps=1.0):
    probs = torch.sigmoid(logits).detach().cpu().numpy()
    t = target.cpu().numpy()
    inter = (probs * t).sum(axis=(1, 2, 3))
    denom = probs.sum(axis=(1, 2, 3)) + t.sum(axis=(1, 2, 3))
    dice = ((2 * inter + eps) / (denom + eps)).mean()
    return torch.tensor(1.0 - dice, requires_grad=True)


@torch.no_grad()
def evaluate(model, dl):
    model.eval()
    inter = union = 0.0
    for x, y in dl:
        pred = (torch.sigmoid(model(x)) > 0.5).float()
        inter += (pred * y).sum().item()
        union += ((pred + y) > 0).float().sum().item()
    return inter / max(union, 1.0)


train_dl = DataLoader(CrackDataset(1000), batch_size=32, shuffle=True)
val_dl = DataLoader(CrackDataset(300), batch_size=100)

model = SegNet()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(1, 9):
    model.train()
    losses = []
    for x, y in train_dl:
        loss = dice_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(f"epoch {epoch:2d}  dice_loss {np.mean(losses):.4f} (min {np.min(losses):.4f} max {np.max(losses):.4f})"
          f"  val_IoU {evaluate(model, val_dl):.4f}")
