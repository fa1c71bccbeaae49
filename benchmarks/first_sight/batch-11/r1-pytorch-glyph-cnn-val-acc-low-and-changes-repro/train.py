"""Glyph recogniser for scanned meter readings (digits 0-9 as 28x28 crops).

Single folder of labelled crops -> 85/15 train/val split with random_split.
"""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader, random_split

torch.manual_seed(0)
np.random.seed(0)

SIZE = 28


def render_digits(n, seed):
    """Stand-in for the crop export: each class is a fixed stroke template + jitter + noise."""
    rng = np.random.default_rng(seed)
    templates = rng.random((10, SIZE, SIZE)) < 0.18
    labels = rng.integers(0, 10, n)
    imgs = np.zeros((n, SIZE, SIZE), dtype=np.float32)
    for i, c in enumerate(labels):
        dy, dx = rng.integers(-2, 3, 2)
        imgs[i] = np.roll(templates[c], (dy, dx), axis=(0, 1)) * rng.uniform(0.6, 1.0)
    imgs += rng.normal(0, 0.15, imgs.shape).astype(np.float32)
    return (imgs * 255).clip(0, 255).astype(np.uint8), labels


# ---------------- transforms ----------------
class ToTensor:
    def __call__(self, a):
        return torch.from_numpy(a).float().div(255).unsqueeze(0)


class RandomShift:
    def __init__(self, max_px):
        self.max_px = max_px

    def __call__(self, t):
        dy, dx = torch.randint(-self.max_px, self.max_px + 1, (2,)).tolist()
        return torch.roll(t, (dy, dx), dims=(1, 2))


class RandomErase:
    def __init__(self, p=0.5, size=12):
        self.p, self.size = p, size

    def __call__(self, t):
        if torch.rand(1).item() < self.p:
            y, x = torch.randint(0, SIZE - self.size, (2,)).tolist()
            t = t.clone()
            t[:, y:y + self.size, x:x + self.size] = 0
        return t


class GaussianNoise:
    def __init__(self, std):
        self.std = std

    def __call__(self, t):
        return t + self.std * torch.randn_like(t)


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


train_tf = Compose([ToTensor(), RandomShift(3), RandomErase(p=0.5, size=12), GaussianNoise(0.3)])
eval_tf = Compose([ToTensor()])


class MeterCrops(Dataset):
    def __init__(self, images, labels, transform=None):
        self.images, self.labels, self.transform = images, labels, transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        x = self.images[i]
        if self.transform is not None:
            x = self.transform(x)
        return x, int(self.labels[i])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 7 * 7, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
        total += len(y)
    return correct / total


def main():
    images, labels = render_digits(3000, seed=1)
    full = MeterCrops(images, labels, transform=eval_tf)
    n_val = int(0.15 * len(full))
    train_ds, val_ds = random_split(full, [len(full) - n_val, n_val],
                                    generator=torch.Generator().manual_seed(42))
    train_ds.dataset.transform = train_tf   # augment the training split only

    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256, shuffle=False)
    print(f"train {len(train_ds)}  val {len(val_ds)}")

    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    best_acc, best_state = 0.0, None
    for epoch in range(6):
        model.train()
        run_loss = 0.0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run_loss += loss.item() * len(y)
        acc = evaluate(model, val_dl)
        print(f"epoch {epoch} | train loss {run_loss / len(train_ds):.4f} | val acc {acc:.4f}")
        if acc > best_acc:
            best_acc, best_state = acc, copy.deepcopy(model.state_dict())

    model.load_state_dict(best_state)
    torch.save(best_state, "meter_glyphs_best.pt")
    print(f"best val acc during training: {best_acc:.4f}")
    # same weights, same val loader, model.eval() inside evaluate()
    for run in range(3):
        print(f"re-evaluating best checkpoint on val (run {run}): {evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
