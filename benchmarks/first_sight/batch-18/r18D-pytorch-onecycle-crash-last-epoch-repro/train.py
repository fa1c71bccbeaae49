import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

EPOCHS, BATCH, MAX_LR = 8, 64, 3e-3


def make_images(n):
    """Synthetic 3x16x16 images: class = orientation of a bar + noise."""
    y = torch.randint(0, 4, (n,))
    img = 2.0 * torch.randn(n, 3, 16, 16)
    for k in range(4):
        idx = (y == k)
        if k == 0:
            img[idx, :, 7:9, :] += 1.0
        elif k == 1:
            img[idx, :, :, 7:9] += 1.0
        elif k == 2:
            img[idx] += torch.eye(16).expand(3, 16, 16)
        else:
            img[idx] += torch.eye(16).flip(1).expand(3, 16, 16)
    return TensorDataset(img, y)


train_ds, val_ds = make_images(5000), make_images(1000)
train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True, num_workers=0)
val_dl = DataLoader(val_ds, batch_size=256)

model = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
    nn.Conv2d(32, 64, 3, padding=1, stride=2), nn.BatchNorm2d(64), nn.ReLU(),
    nn.Conv2d(64, 64, 3, padding=1, stride=2), nn.BatchNorm2d(64), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 4),
)

steps_per_epoch = len(train_ds) // BATCH
optimizer = torch.optim.AdamW(model.parameters(), lr=MAX_LR / 25, weight_decay=0.05)
scheduler = torch.optim.lr_scheduler.OneCycleLR(
    optimizer, max_lr=MAX_LR, total_steps=EPOCHS * steps_per_epoch, pct_start=0.2)


@torch.no_grad()
def evaluate():
    model.eval()
    correct = 0
    for x, y in val_dl:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            correct += (model(x).argmax(1) == y).sum().item()
    model.train()
    return correct / len(val_ds)


print(f"epochs={EPOCHS} steps/epoch={steps_per_epoch} total_steps={EPOCHS * steps_per_epoch}")
t0 = time.time()
best = 0.0
for epoch in range(EPOCHS):
    running = 0.0
    for x, y in train_dl:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        scheduler.step()
        running += loss.item()
    acc = evaluate()
    print(f"epoch {epoch + 1}/{EPOCHS} | loss {running / len(train_dl):.4f} | val_acc {acc:.4f} "
          f"| lr {scheduler.get_last_lr()[0]:.2e} | {time.time() - t0:.0f}s")
    if acc > best:
        best = acc
print(f"best val_acc {best:.4f}")
torch.save(model.state_dict(), "model_final.pt")
