"""Small CNN on synthetic 'shapes' images; reports val loss, accuracy and macro-F1 each epoch."""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(2)
torch.manual_seed(0)
NUM_CLASSES = 8
EPOCHS = 4


class ShapesDataset(Dataset):
    """Each class is a fixed random 2-D frequency pattern plus noise and a random shift."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        yy, xx = torch.meshgrid(torch.arange(24.0), torch.arange(24.0), indexing="ij")
        freqs = torch.rand(NUM_CLASSES, 2, generator=torch.Generator().manual_seed(42)) * 0.8 + 0.1
        self.labels = torch.randint(0, NUM_CLASSES, (n,), generator=g)
        shift = torch.rand(n, 1, 1, generator=g) * 2 * math.pi
        f = freqs[self.labels]
        self.images = torch.sin(f[:, 0, None, None] * xx + f[:, 1, None, None] * yy + shift)
        self.images += 0.8 * torch.randn(n, 24, 24, generator=g)
        self.images = self.images.unsqueeze(1)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


train_ds = ShapesDataset(12000, seed=1)
val_ds = ShapesDataset(3000, seed=2)
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True, num_workers=2, persistent_workers=True)
val_loader = DataLoader(val_ds, batch_size=256, shuffle=True, num_workers=2, persistent_workers=True)

model = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(32 * 6 * 6, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, NUM_CLASSES),
)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.no_grad()
def predict(loader):
    model.eval()
    all_preds, loss_sum, n = [], 0.0, 0
    for x, y in loader:
        logits = model(x)
        loss_sum += F.cross_entropy(logits, y, reduction="sum").item()
        n += len(y)
        all_preds.append(logits.argmax(dim=1))
    model.train()
    return torch.cat(all_preds), loss_sum / n


def classification_metrics(preds, targets):
    acc = (preds == targets).float().mean().item()
    f1s = []
    for c in range(NUM_CLASSES):
        tp = ((preds == c) & (targets == c)).sum().item()
        fp = ((preds == c) & (targets != c)).sum().item()
        fn = ((preds != c) & (targets == c)).sum().item()
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return acc, sum(f1s) / len(f1s)


for epoch in range(EPOCHS):
    t0 = time.time()
    tr_loss, tr_correct, tr_n = 0.0, 0, 0
    for x, y in train_loader:
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tr_loss += loss.item() * len(y)
        tr_correct += (logits.argmax(1) == y).sum().item()
        tr_n += len(y)
    preds, val_loss = predict(val_loader)
    val_acc, val_f1 = classification_metrics(preds, val_ds.labels)
    print(f"epoch {epoch} | train_loss {tr_loss / tr_n:.4f} train_acc {tr_correct / tr_n:.4f} | "
          f"val_loss {val_loss:.4f} val_acc {val_acc:.4f} val_macro_f1 {val_f1:.4f} | {time.time() - t0:.1f}s",
          flush=True)

torch.save(model.state_dict(), "shapes_cnn.pt")
print("saved shapes_cnn.pt")
