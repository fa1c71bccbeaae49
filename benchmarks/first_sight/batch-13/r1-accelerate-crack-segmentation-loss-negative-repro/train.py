"""Concrete crack segmentation (binary masks) with a small fully-convolutional
net, trained with accelerate. Images and masks come from the annotation tool
as 8-bit grayscale PNGs (here generated in memory with the same format)."""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset

H = W = 32


def render_sample(rng):
    """Returns (image uint8 HxW, mask uint8 HxW) like the exported PNG pair."""
    img = rng.normal(150, 18, (H, W))
    mask = np.zeros((H, W), np.uint8)
    for _ in range(rng.integers(1, 3)):
        x0, y0 = rng.integers(0, W), 0
        x, y = float(x0), float(y0)
        dx = rng.uniform(-0.6, 0.6)
        width = rng.integers(1, 3)
        while 0 <= y < H and 0 <= x < W:
            xi, yi = int(x), int(y)
            mask[yi, max(0, xi - width // 2): xi + width // 2 + 1] = 255
            x += dx + rng.normal(0, 0.3)
            y += 1
    img[mask > 0] -= rng.uniform(50, 80)
    return np.clip(img, 0, 255).astype(np.uint8), mask


class CrackDataset(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.pairs = [render_sample(rng) for _ in range(n)]

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        img, mask = self.pairs[i]
        x = torch.from_numpy(img).float().div(255.0).sub(0.5).div(0.25).unsqueeze(0)
        y = torch.from_numpy(mask).float().unsqueeze(0)
        return x, y


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class CrackNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1, self.enc2 = block(1, 16), block(16, 32)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.dec = block(32 + 16, 16)
        self.out = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        d = self.dec(torch.cat([self.up(e2), e1], 1))
        return self.out(d)


def iou(logits, target):
    pred = logits > 0
    gt = target > 0
    inter = (pred & gt).sum().item()
    union = (pred | gt).sum().item()
    return inter / max(union, 1)


def main():
    set_seed(0)
    accelerator = Accelerator()
    train_dl = DataLoader(CrackDataset(480, 1), batch_size=16, shuffle=True)
    val_dl = DataLoader(CrackDataset(100, 2), batch_size=50)
    model = CrackNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)
    criterion = nn.BCEWithLogitsLoss()

    for epoch in range(5):
        model.train()
        total, n = 0.0, 0
        for step, (xb, yb) in enumerate(train_dl):
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            total += loss.item()
            n += 1
            if epoch == 0 and step % 5 == 0:
                accelerator.print(f"epoch 0 step {step:2d} loss {loss.item():.4f}")
        model.eval()
        ious, fg = [], []
        with torch.no_grad():
            for xb, yb in val_dl:
                logits = model(xb)
                ious.append(iou(logits, yb))
                fg.append((logits > 0).float().mean().item())
        accelerator.print(f"epoch {epoch} train_loss {total / n:.4f} "
                          f"val_iou {np.mean(ious):.3f} predicted_crack_px {np.mean(fg):.3f}")


if __name__ == "__main__":
    main()
