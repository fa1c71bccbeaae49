"""Shape classifier for QA-camera crops (circle / square / triangle / cross), 48x48 RGB.

The crops arrive as PNG bytes from the inspection service.
"""
import io
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image, ImageDraw
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
random.seed(0)
CLASSES = ["circle", "square", "triangle", "cross"]
IMAGENET_MEAN = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
IMAGENET_STD = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
SIZE, BATCH, EPOCHS, LR = 48, 64, 4, 0.01


def render(label, rng):
    bg = tuple(rng.randint(0, 120) for _ in range(3))
    fg = tuple(rng.randint(130, 255) for _ in range(3))
    im = Image.new("RGB", (SIZE, SIZE), bg)
    d = ImageDraw.Draw(im)
    r = rng.randint(9, 18)
    cx, cy = rng.randint(r + 2, SIZE - r - 2), rng.randint(r + 2, SIZE - r - 2)
    if label == 0:
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fg)
    elif label == 1:
        d.rectangle([cx - r, cy - r, cx + r, cy + r], fill=fg)
    elif label == 2:
        d.polygon([(cx, cy - r), (cx - r, cy + r), (cx + r, cy + r)], fill=fg)
    else:
        w = max(2, r // 3)
        d.rectangle([cx - r, cy - w, cx + r, cy + w], fill=fg)
        d.rectangle([cx - w, cy - r, cx + w, cy + r], fill=fg)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


class Crops(Dataset):
    def __init__(self, n, seed):
        rng = random.Random(seed)
        self.labels = [rng.randrange(len(CLASSES)) for _ in range(n)]
        self.blobs = [render(l, rng) for l in self.labels]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = np.array(Image.open(io.BytesIO(self.blobs[i])).convert("RGB"))
        x = torch.from_numpy(img).permute(2, 0, 1).float()
        x = (x - IMAGENET_MEAN) / IMAGENET_STD
        return x, self.labels[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.c3 = nn.Conv2d(64, 128, 3, padding=1)
        self.fc1 = nn.Linear(128 * 6 * 6, 256)
        self.fc2 = nn.Linear(256, len(CLASSES))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.max_pool2d(F.relu(self.c3(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


train_ds, val_ds = Crops(6000, seed=1), Crops(1000, seed=2)
train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True, num_workers=2)
val_dl = DataLoader(val_ds, batch_size=256, num_workers=2)
x0, _ = train_ds[0]
print(f"train {len(train_ds)} val {len(val_ds)} input {tuple(x0.shape)}")

model = Net()
opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, weight_decay=5e-4)
for epoch in range(EPOCHS):
    model.train()
    t0, tot, n = time.time(), 0.0, 0
    for i, (x, y) in enumerate(train_dl):
        step = epoch * len(train_dl) + i
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(y)
        n += len(y)
        if step < 10 or i % 20 == 0:
            print(f"epoch {epoch} iter {i:3d} loss {loss.item():.4f}")
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in val_dl:
            correct += (model(x).argmax(1) == y).sum().item()
    print(f"== epoch {epoch} train_loss {tot / n:.4f} val_acc {correct / len(val_ds):.4f} ({time.time() - t0:.1f}s)")
