"""Train a small CNN on synthetic 'defect' images, keep best-by-val checkpoint, report test accuracy."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CKPT_DIR = "checkpoints"
N_CLASSES = 6


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = torch.randn(n, 1, 28, 28, generator=g) * 1.0
    for c in range(N_CLASSES):
        idx = (y == c).nonzero().squeeze(1)
        r, col = 3 + 4 * (c // 2), 4 + 10 * (c % 2)
        x[idx, 0, r:r + 6, col:col + 10] += 0.35
    return TensorDataset(x, y)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn1, self.bn2 = nn.BatchNorm2d(16), nn.BatchNorm2d(32)
        self.fc = nn.Linear(32 * 7 * 7, N_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(x.flatten(1))


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
        total += len(y)
    return correct / total


def build_model():
    model = SmallCNN()
    return nn.DataParallel(model)


def main():
    torch.manual_seed(0)
    os.makedirs(CKPT_DIR, exist_ok=True)
    train_dl = DataLoader(make_split(6000, 0), batch_size=64, shuffle=True)
    val_dl = DataLoader(make_split(1000, 1), batch_size=256)
    test_dl = DataLoader(make_split(2000, 2), batch_size=256)

    model = build_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    best_acc, best_path = 0.0, os.path.join(CKPT_DIR, "best.pt")

    for epoch in range(4):
        model.train()
        for step, (x, y) in enumerate(train_dl):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        val_acc = accuracy(model, val_dl)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {val_acc:.4f}")
        if val_acc > best_acc:
            best_acc = val_acc
            torch.save(model.state_dict(), best_path)
            print(f"  saved new best to {best_path}")

    # fresh process-style reload for the final report / export
    test_model = SmallCNN()
    state = torch.load(best_path, map_location="cpu")
    test_model.load_state_dict(state, strict=False)
    test_acc = accuracy(test_model, test_dl)
    print(f"best val_acc {best_acc:.4f} | test_acc (best checkpoint) {test_acc:.4f}")
    torch.save(test_model.state_dict(), os.path.join(CKPT_DIR, "export.pt"))


if __name__ == "__main__":
    main()
