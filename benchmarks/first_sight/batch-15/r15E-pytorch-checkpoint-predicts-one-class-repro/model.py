import torch
import torch.nn as nn
from torch.utils.data import TensorDataset

CLASSES = ["circle", "square", "triangle", "cross"]


def make_shapes(n, seed):
    g = torch.Generator().manual_seed(seed)
    ys = torch.randint(0, 4, (n,), generator=g)
    yy, xx = torch.meshgrid(torch.arange(24.0), torch.arange(24.0), indexing="ij")
    imgs = torch.zeros(n, 1, 24, 24)
    for i, c in enumerate(ys.tolist()):
        cx, cy = (torch.rand(2, generator=g) * 8 + 8).tolist()
        r = float(torch.rand(1, generator=g) * 3 + 4)
        if c == 0:
            m = ((xx - cx) ** 2 + (yy - cy) ** 2) <= r ** 2
        elif c == 1:
            m = ((xx - cx).abs() <= r) & ((yy - cy).abs() <= r)
        elif c == 2:
            m = (yy - cy <= r) & (yy - cy >= -r) & ((xx - cx).abs() <= (yy - cy + r) / 2)
        else:
            m = (((xx - cx).abs() <= 1.2) | ((yy - cy).abs() <= 1.2)) & \
                ((xx - cx).abs() <= r) & ((yy - cy).abs() <= r)
        imgs[i, 0] = m.float()
    imgs += 0.3 * torch.randn(imgs.shape, generator=g)
    return TensorDataset(imgs, ys)


class ShapeNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.classifier(self.backbone(x).flatten(1))
