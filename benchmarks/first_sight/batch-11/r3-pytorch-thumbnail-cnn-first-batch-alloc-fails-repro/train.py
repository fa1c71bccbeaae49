"""Fine-tune a small CNN backbone (trained at 96x96) on 32x32 product thumbnails.

The backbone was pre-trained on 96x96 crops, so every batch is resized to the
backbone resolution before the forward pass.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

IMG_SIZE = 96          # backbone input resolution
BATCH_SIZE = 128
NUM_CLASSES = 10


def make_thumbnails(n, seed):
    """Stand-in for the thumbnail export: 32x32 RGB uint8 images, class = dominant colour pattern."""
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, NUM_CLASSES, (n,), generator=g)
    base = torch.rand(NUM_CLASSES, 3, 1, 1, generator=torch.Generator().manual_seed(1234))  # class colours
    xx = torch.linspace(0, 1, 32)
    stripes = torch.sin(6.28 * (y.view(-1, 1, 1).float() + 1) * xx.view(1, 1, 32))
    x = base[y] * 0.7 + 0.2 * stripes.unsqueeze(1) + 0.1 * torch.rand(n, 3, 32, 32, generator=g)
    return (x.clamp(0, 1) * 255).to(torch.uint8), y


def backbone():
    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.BatchNorm2d(cout), nn.ReLU())
    return nn.Sequential(block(3, 16), block(16, 32), block(32, 64), block(64, 64),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten())


def main():
    torch.manual_seed(0)
    x_train, y_train = make_thumbnails(2048, 1)
    x_val, y_val = make_thumbnails(512, 2)
    train_dl = DataLoader(TensorDataset(x_train, y_train), batch_size=BATCH_SIZE, shuffle=True)
    val_dl = DataLoader(TensorDataset(x_val, y_val), batch_size=BATCH_SIZE)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)

    def preprocess(xb):
        xb = xb.float() / 255.0
        xb = F.interpolate(xb, scale_factor=IMG_SIZE, mode="bilinear", align_corners=False)
        return (xb - mean) / std

    model = nn.Sequential(backbone(), nn.Linear(64, NUM_CLASSES))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    print(f"train {len(x_train)} thumbnails, val {len(x_val)}, batch {BATCH_SIZE}, input {IMG_SIZE}x{IMG_SIZE}",
          flush=True)

    for epoch in range(3):
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(train_dl, 1):
            loss = F.cross_entropy(model(preprocess(xb)), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 4 == 0:
                print(f"epoch {epoch} step {step}/{len(train_dl)} loss {loss.item():.4f}", flush=True)
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(preprocess(xb)).argmax(1) == yb).sum().item()
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s | val acc {correct / len(x_val):.3f}", flush=True)


if __name__ == "__main__":
    main()
