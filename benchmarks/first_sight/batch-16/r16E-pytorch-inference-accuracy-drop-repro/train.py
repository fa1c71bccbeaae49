import argparse
from collections import Counter

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--mode", choices=["train", "predict"], default="train")
parser.add_argument("--epochs", type=int, default=4)
parser.add_argument("--ckpt", default="shape_cnn.pt")
args = parser.parse_args()

CLASSES = ["horizontal", "vertical", "diagonal", "blob"]


def make_images(n, seed):
    """Synthetic 1x24x24 images: a bar/diagonal/blob pattern plus noise, random brightness."""
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = 0.3 * torch.randn(n, 1, 24, 24, generator=g)
    pos = torch.randint(4, 20, (n,), generator=g)
    for i in range(n):
        p = pos[i].item()
        if y[i] == 0:
            x[i, 0, p - 1:p + 2, 3:21] += 1.0
        elif y[i] == 1:
            x[i, 0, 3:21, p - 1:p + 2] += 1.0
        elif y[i] == 2:
            idx = torch.arange(24)
            x[i, 0, idx, idx] += 1.0
            x[i, 0, idx[1:], idx[:-1]] += 1.0
        else:
            x[i, 0, 8:16, 8:16] += 0.6
    x = x * (0.5 + torch.rand(n, 1, 1, 1, generator=g)) + 0.2
    return x, y


class ShapeCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.head(self.features(x))


def train():
    torch.manual_seed(0)
    xtr, ytr = make_images(4000, seed=0)
    xva, yva = make_images(800, seed=1)
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True)
    model = ShapeCNN()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val_acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch} | train loss {loss.item():.4f} | val acc {val_acc:.4f}", flush=True)
    torch.save(model.state_dict(), args.ckpt)
    print(f"saved {args.ckpt}")


def predict():
    model = ShapeCNN()
    model.load_state_dict(torch.load(args.ckpt))
    x_new, y_new = make_images(400, seed=7)
    preds = []
    with torch.no_grad():
        for img in x_new:
            logits = model(img.unsqueeze(0))
            preds.append(logits.argmax(1).item())
    preds = torch.tensor(preds)
    acc = (preds == y_new).float().mean().item()
    print(f"predicted {len(preds)} images | accuracy {acc:.4f}")
    print("prediction counts:", {CLASSES[k]: v for k, v in sorted(Counter(preds.tolist()).items())})
    print("true counts:      ", {CLASSES[k]: v for k, v in sorted(Counter(y_new.tolist()).items())})


if __name__ == "__main__":
    train() if args.mode == "train" else predict()
