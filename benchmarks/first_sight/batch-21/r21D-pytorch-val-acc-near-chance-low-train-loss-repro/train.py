"""Small CNN on 16x16 single-channel 'sensor patches', 8 defect classes.

Samples are stored per class (data/<class_name>/*.npy in the real setup); here they are generated
in memory with the same layout.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
CLASSES = ["ok", "scratch", "dent", "crack", "stain", "hole", "burr", "warp"]


def make_prototypes(seed=123):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(len(CLASSES), 1, 16, 16, generator=g)


class PatchFolder(Dataset):
    """Mimics an ImageFolder: one (path, label) entry per file under data/<class>/."""

    def __init__(self, per_class, seed, protos):
        g = torch.Generator().manual_seed(seed)
        self.samples = []
        for label, name in enumerate(CLASSES):
            for _ in range(per_class):
                x = 0.6 * protos[label] + torch.randn(1, 16, 16, generator=g)
                self.samples.append((x, label))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        x, y = self.samples[idx]
        x = (x - x.mean()) / (x.std() + 1e-6)
        return x, y


class Net(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.c1 = nn.Conv2d(1, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 4 * 4, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


protos = make_prototypes()
train_ds = PatchFolder(per_class=600, seed=1, protos=protos)
val_ds = PatchFolder(per_class=200, seed=2, protos=protos)
train_dl = DataLoader(train_ds, batch_size=64, num_workers=0)
val_dl = DataLoader(val_ds, batch_size=256)

model = Net(len(CLASSES))
opt = torch.optim.SGD(model.parameters(), lr=0.02, weight_decay=1e-4)
crit = nn.CrossEntropyLoss()

for epoch in range(5):
    model.train()
    t0, tot, correct, n = time.time(), 0.0, 0, 0
    for xb, yb in train_dl:
        out = model(xb)
        loss = crit(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(yb)
        correct += (out.argmax(1) == yb).sum().item()
        n += len(yb)

    model.eval()
    vc, vn = 0, 0
    per_class = torch.zeros(len(CLASSES))
    with torch.no_grad():
        for xb, yb in val_dl:
            pred = model(xb).argmax(1)
            vc += (pred == yb).sum().item()
            vn += len(yb)
            per_class += torch.bincount(pred, minlength=len(CLASSES)).float()
    print(f"epoch {epoch} train_loss {tot / n:.4f} train_acc {correct / n:.3f} "
          f"val_acc {vc / vn:.3f} ({time.time() - t0:.1f}s)")
    print("  val predictions per class:", per_class.int().tolist())
