import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(42)

N_CLASSES = 10
IMG = 16
N = 12_000


def make_glyphs(n):
    """Noisy, randomly shifted 16x16 glyphs: one random stroke pattern per class."""
    protos = (torch.rand(N_CLASSES, IMG, IMG) < 0.18).float()
    protos = nn.functional.avg_pool2d(protos[:, None], 3, 1, 1)[:, 0] * 3
    y = torch.randint(0, N_CLASSES, (n,))
    x = protos[y]
    shifts = torch.randint(-2, 3, (n, 2))
    x = torch.stack([torch.roll(img, (int(s[0]), int(s[1])), (0, 1)) for img, s in zip(x, shifts)])
    x = x + 0.8 * torch.randn_like(x)
    return x[:, None], y


class GlyphNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(64 * 4 * 4, 128), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(128, N_CLASSES),
            nn.Softmax(dim=1),
        )

    def forward(self, x):
        return self.classifier(self.features(x))


def evaluate(model, dl, criterion):
    model.eval()
    tot_loss, correct, n = 0.0, 0, 0
    with torch.no_grad():
        for xb, yb in dl:
            out = model(xb)
            tot_loss += criterion(out, yb).item() * len(yb)
            correct += (out.argmax(1) == yb).sum().item()
            n += len(yb)
    return tot_loss / n, correct / n


def main():
    X, y = make_glyphs(N)
    ds = TensorDataset(X, y)
    train_ds, val_ds = random_split(ds, [10_000, 2_000], generator=torch.Generator().manual_seed(0))
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = GlyphNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"params: {sum(p.numel() for p in model.parameters()):,}")

    for epoch in range(1, 13):
        model.train()
        t0 = time.time()
        running = 0.0
        for i, (xb, yb) in enumerate(train_dl):
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()
            running += loss.item()
        val_loss, val_acc = evaluate(model, val_dl, criterion)
        print(f"epoch {epoch:2d} | train_loss {running / len(train_dl):.4f} | val_loss {val_loss:.4f} "
              f"| val_acc {val_acc:.4f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
