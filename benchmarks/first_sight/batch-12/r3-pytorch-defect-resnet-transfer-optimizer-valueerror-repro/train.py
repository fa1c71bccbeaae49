"""Transfer learning: reuse the backbone we pre-trained on the big defect set
and train only a new classifier head on the small 'scratch / dent / ok' set.
"""
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
PRETRAINED = "backbone_pretrained.pt"
NUM_CLASSES = 3


class Block(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.skip = nn.Conv2d(cin, cout, 1, bias=False) if cin != cout else nn.Identity()

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = self.bn2(self.conv2(h))
        return F.relu(h + self.skip(x))


class SmallResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.layer1 = Block(16, 32)
        self.layer2 = Block(32, 64)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = F.max_pool2d(self.layer1(x), 2)
        x = F.max_pool2d(self.layer2(x), 2)
        return self.fc(self.pool(x).flatten(1))


def fake_defect_images(n):
    x = torch.randn(n, 1, 32, 32) * 0.3
    y = torch.randint(0, NUM_CLASSES, (n,))
    x[y == 0, :, 10:12, 4:28] += 1.5          # scratch: thin horizontal line
    x[y == 1, :, 12:20, 12:20] -= 1.5         # dent: dark square
    return x, y


if not os.path.exists(PRETRAINED):
    # stand-in for the checkpoint from the pre-training job (10 defect classes)
    torch.save(SmallResNet(num_classes=10).state_dict(), PRETRAINED)

model = SmallResNet(num_classes=10)
model.load_state_dict(torch.load(PRETRAINED))
model.fc = nn.Linear(model.fc.in_features, NUM_CLASSES)

# freeze the backbone, train only the classifier
for name, param in model.named_parameters():
    param.requires_grad = name.startswith("classifier")

n_total = sum(p.numel() for p in model.parameters())
print(f"params: {n_total} total")

x, y = fake_defect_images(1200)
train_dl = DataLoader(TensorDataset(x[:1000], y[:1000]), batch_size=50, shuffle=True)
val_x, val_y = x[1000:], y[1000:]

optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-2)
criterion = nn.CrossEntropyLoss()

t0 = time.time()
for epoch in range(5):
    model.train()
    total = 0.0
    for xb, yb in train_dl:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        acc = (model(val_x).argmax(1) == val_y).float().mean().item()
    print(f"epoch {epoch + 1}: loss {total / 1000:.4f} val_acc {acc:.3f} ({time.time() - t0:.1f}s)")
