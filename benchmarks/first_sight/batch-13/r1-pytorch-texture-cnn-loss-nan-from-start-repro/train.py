"""Fabric texture classifier (4 weave types, 16x16 RGB crops).
Pre-processing: ZCA whitening as in Coates & Ng, fitted once on a subset of
the training crops, then a small CNN trained with SGD+momentum."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
SIZE = 16
CLASSES = ["plain", "twill", "satin", "basket"]


def make_crops(n, gen):
    """Synthetic stand-in for the scanner crops: oriented gratings + sensor noise."""
    ys, xs = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    imgs, labels = [], []
    for _ in range(n):
        c = int(torch.randint(0, 4, (1,), generator=gen))
        freq = [0.9, 0.6, 0.35, 1.3][c]
        ang = [0.0, 0.78, 1.57, 2.35][c] + 0.15 * torch.randn(1, generator=gen).item()
        phase = 6.28 * torch.rand(1, generator=gen).item()
        g = torch.sin(freq * (xs * math.cos(ang) + ys * math.sin(ang)) + phase)
        tint = 0.5 + 0.3 * torch.rand(3, 1, 1, generator=gen)
        img = tint * (0.5 + 0.35 * g) + 0.05 * torch.randn(3, SIZE, SIZE, generator=gen)
        imgs.append(img.clamp(0, 1))
        labels.append(c)
    return torch.stack(imgs), torch.tensor(labels)


class ZCA:
    def fit(self, x):
        flat = x.reshape(len(x), -1)
        self.mean = flat.mean(0)
        xc = flat - self.mean
        cov = xc.T @ xc / (len(flat) - 1)
        evals, evecs = torch.linalg.eigh(cov)
        self.W = evecs @ torch.diag(1.0 / torch.sqrt(evals)) @ evecs.T
        return self

    def __call__(self, img):
        return ((img.reshape(-1) - self.mean) @ self.W).reshape(img.shape)


class CropDataset(Dataset):
    def __init__(self, x, y, transform):
        self.x, self.y, self.transform = x, y, transform

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.transform(self.x[i]), self.y[i]


class TextureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 4 * 4, len(CLASSES))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def main():
    gen = torch.Generator().manual_seed(1)
    x_train, y_train = make_crops(4000, gen)
    x_val, y_val = make_crops(800, gen)
    # fitting on a 600-crop subset is plenty for the whitening statistics
    zca = ZCA().fit(x_train[:600])
    print(f"train crops: {tuple(x_train.shape)}, val crops: {tuple(x_val.shape)}")

    train_dl = DataLoader(CropDataset(x_train, y_train, zca), batch_size=64, shuffle=True)
    val_dl = DataLoader(CropDataset(x_val, y_val, zca), batch_size=200)

    model = TextureNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(4):
        model.train()
        for step, (xb, yb) in enumerate(train_dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 15 == 0:
                print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f}")
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(xb).argmax(1) == yb).sum().item()
        print(f"epoch {epoch} val_acc {correct / len(y_val):.3f}")


if __name__ == "__main__":
    main()
