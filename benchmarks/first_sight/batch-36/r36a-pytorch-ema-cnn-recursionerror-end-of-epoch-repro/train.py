"""Leaf-disease classifier (small CNN on 32x32 crops) with an EMA of the weights.

The EMA copy is what we evaluate and export; the best EMA snapshot (by val
accuracy) is kept in memory and written at the end.
"""
import copy
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)

N_CLASSES = 6
EPOCHS = 4
BATCH = 64


def synth_crops(n):
    y = torch.randint(0, N_CLASSES, (n,))
    yy, xx = torch.meshgrid(torch.arange(32.0), torch.arange(32.0), indexing="ij")
    freq = (1 + y).float().view(-1, 1, 1) * 0.35
    base = torch.sin(freq * xx / 3 + freq * yy / 5)
    img = torch.stack([base, base.roll(3, 1), base.roll(5, 2)], 1)
    img = img + 6.0 * torch.randn(n, 3, 32, 32)
    return img, y


x_tr, y_tr = synth_crops(4000)
x_va, y_va = synth_crops(800)
train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=BATCH, shuffle=True)
val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=256)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class ModelEMA:
    """Exponential moving average of a model's parameters and buffers.

    Attribute access falls through to the averaged module, so the EMA can be
    used like the model itself (ema(x), ema.eval(), ema.state_dict(), ...).
    """

    def __init__(self, model, decay=0.98):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for e, m in zip(self.module.state_dict().values(), model.state_dict().values()):
            if e.dtype.is_floating_point:
                e.mul_(self.decay).add_(m.detach(), alpha=1 - self.decay)
            else:
                e.copy_(m)

    def __call__(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.module, name)


@torch.no_grad()
def accuracy(net, loader):
    net.eval()
    correct = 0
    for x, y in loader:
        correct += (net(x).argmax(1) == y).sum().item()
    return correct / len(loader.dataset)


model = SmallCNN()
ema = ModelEMA(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
best_acc, best_ema = 0.0, None
t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    tot = 0.0
    for x, y in train_dl:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        tot += loss.item() * len(y)
    acc_raw = accuracy(model, val_dl)
    acc_ema = accuracy(ema, val_dl)
    print(f"epoch {epoch} train_loss {tot / len(train_dl.dataset):.4f} val_acc {acc_raw:.4f} "
          f"val_acc_ema {acc_ema:.4f} ({time.time() - t0:.0f}s)", flush=True)
    if acc_ema > best_acc:
        best_acc = acc_ema
        best_ema = copy.deepcopy(ema)
        print(f"  new best EMA snapshot (val_acc_ema {best_acc:.4f})", flush=True)

torch.save(best_ema.state_dict(), "leaf_cnn_ema_best.pt")
print(f"saved best EMA weights, val_acc_ema {best_acc:.4f}")
