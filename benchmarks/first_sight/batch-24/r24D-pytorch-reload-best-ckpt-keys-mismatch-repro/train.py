import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CKPT_DIR = "checkpoints"


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 1, 28, 28, generator=g)
    w = torch.randn(1, 1, 28, 28, generator=torch.Generator().manual_seed(123))
    score = (x * w).flatten(1).sum(1) + 0.3 * x[:, 0, 10:18, 10:18].flatten(1).pow(2).sum(1) - 19.0
    y = torch.bucketize(score, torch.tensor([-12.0, -4.0, 4.0, 12.0]))
    return x, y


class SmallCNN(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(32 * 7 * 7, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct = n = 0
    for xb, yb in loader:
        correct += (model(xb).argmax(1) == yb).sum().item()
        n += len(yb)
    model.train()
    return correct / n


def main():
    torch.manual_seed(0)
    os.makedirs(CKPT_DIR, exist_ok=True)
    train_dl = DataLoader(TensorDataset(*make_split(8000, 0)), batch_size=128, shuffle=True)
    val_dl = DataLoader(TensorDataset(*make_split(2000, 1)), batch_size=500)
    test_dl = DataLoader(TensorDataset(*make_split(2000, 2)), batch_size=500)

    model = SmallCNN()
    model = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    print(f"torch {torch.__version__} | compiled model, {sum(p.numel() for p in model.parameters())} params")

    best_acc, best_path = 0.0, None
    for epoch in range(4):
        t0, tot = time.time(), 0.0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        acc = accuracy(model, val_dl)
        print(f"epoch {epoch} | loss {tot / len(train_dl):.4f} | val_acc {acc:.4f} | {time.time() - t0:.1f}s")
        if acc > best_acc:
            best_acc = acc
            best_path = os.path.join(CKPT_DIR, "best.pt")
            torch.save({"epoch": epoch, "model": model.state_dict(), "val_acc": acc}, best_path)
            print(f"  saved {best_path}")

    # final test evaluation from the best checkpoint, with a fresh model as the serving code does
    ckpt = torch.load(best_path, map_location="cpu")
    test_model = SmallCNN()
    test_model.load_state_dict(ckpt["model"])
    print(f"best epoch {ckpt['epoch']} | val_acc {ckpt['val_acc']:.4f} | test_acc {accuracy(test_model, test_dl):.4f}")


if __name__ == "__main__":
    main()
