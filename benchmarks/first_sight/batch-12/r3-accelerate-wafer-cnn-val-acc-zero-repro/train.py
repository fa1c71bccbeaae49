"""Wafer-map defect classifier (8 defect patterns, 32x32 maps), trained with Accelerate."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset

PATTERNS = ["center", "donut", "edge_loc", "edge_ring", "loc", "near_full", "random", "scratch"]
SIZE = 32


def make_map(kind, g):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, SIZE), torch.linspace(-1, 1, SIZE), indexing="ij")
    r = (xx ** 2 + yy ** 2).sqrt()
    m = torch.zeros(SIZE, SIZE)
    cx, cy = (torch.rand(2, generator=g) - 0.5) * 1.0
    if kind == 0:
        m[r < 0.3] = 1
    elif kind == 1:
        m[(r > 0.35) & (r < 0.6)] = 1
    elif kind == 2:
        m[(r > 0.75) & (((xx - cx) ** 2 + (yy - cy) ** 2).sqrt() < 0.9) & (xx > 0.2)] = 1
    elif kind == 3:
        m[r > 0.8] = 1
    elif kind == 4:
        m[((xx - cx) ** 2 + (yy - cy) ** 2).sqrt() < 0.2] = 1
    elif kind == 5:
        m[r < 0.9] = 1
    elif kind == 6:
        m = (torch.rand(SIZE, SIZE, generator=g) < 0.25).float()
    else:
        m[(yy - 0.5 * xx - cy).abs() < 0.06] = 1
    noise = (torch.rand(SIZE, SIZE, generator=g) < 0.05).float()
    m = ((m + noise) > 0).float()
    m[r > 1] = -1          # outside the wafer
    return m


class WaferMaps(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, len(PATTERNS), (n,), generator=g)
        self.x = torch.stack([make_map(int(k), g) for k in self.y]).unsqueeze(1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class WaferCNN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
        )
        self.head = nn.Linear(64 * 4, n_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def main():
    set_seed(0)
    accelerator = Accelerator()
    train_ds, val_ds = WaferMaps(2400, seed=1), WaferMaps(600, seed=2)
    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=200)

    model = WaferCNN(len(PATTERNS))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)

    for epoch in range(4):
        model.train()
        running = 0.0
        for xb, yb in train_dl:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            accelerator.backward(loss)
            optimizer.step()
            running += loss.item()

        model.eval()
        correct = total = 0
        val_loss = 0.0
        with torch.no_grad():
            for xb, yb in val_dl:
                logits = model(xb)
                val_loss += F.cross_entropy(logits, yb).item()
                probs = F.softmax(logits, dim=1)
                preds = torch.max(probs, dim=1)[0]
                preds, yb = accelerator.gather_for_metrics((preds, yb))
                correct += (preds == yb).sum().item()
                total += yb.numel()
        accelerator.print(f"epoch {epoch + 1}: train_loss {running / len(train_dl):.4f} "
                          f"val_loss {val_loss / len(val_dl):.4f} val_acc {correct / total:.4f}")


if __name__ == "__main__":
    main()
