import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
CLASSES = ["scratch_light", "scratch_heavy", "crack_light", "crack_heavy"]


def synth_images(n, gen):
    """Grayscale 24x24 inspection patches. Scratches are horizontal streaks, cracks vertical;
    'heavy' defects are on a darker part surface."""
    y = torch.randint(0, 4, (n,), generator=gen)
    img = torch.zeros(n, 1, 24, 24)
    pos = torch.randint(4, 20, (n,), generator=gen)
    for i in range(n):
        if y[i] in (0, 1):
            img[i, 0, pos[i] - 1:pos[i] + 1, 3:21] = 1.0
        else:
            img[i, 0, 3:21, pos[i] - 1:pos[i] + 1] = 1.0
    base = torch.where((y % 2 == 1), 0.2, 0.6).view(n, 1, 1, 1)
    img = img * 0.5 + base + 0.15 * torch.randn(n, 1, 24, 24, generator=gen)
    return img, y


class DefectNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3, padding=1)
        self.b1 = nn.BatchNorm2d(16)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.b2 = nn.BatchNorm2d(32)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(32, len(CLASSES))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2)
        x = F.max_pool2d(F.relu(self.b2(self.c2(x))), 2)
        x = x.mean(dim=(2, 3))
        return self.fc(self.drop(x))


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def train():
    gen = torch.Generator().manual_seed(1)
    xtr, ytr = synth_images(6000, gen)
    xva, yva = synth_images(1000, gen)
    tr = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True)
    va = DataLoader(TensorDataset(xva, yva), batch_size=256)
    model = DefectNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(4):
        model.train()
        t0 = time.time()
        for x, y in tr:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val acc {evaluate(model, va):.4f} ({time.time() - t0:.1f}s)")
    torch.save(model.state_dict(), "defectnet.pt")


class DefectClassifier:
    """Used by the inspection service: one patch per request."""

    def __init__(self, path):
        self.model = DefectNet()
        self.model.load_state_dict(torch.load(path))

    @torch.no_grad()
    def __call__(self, patch):
        logits = self.model(patch.unsqueeze(0))
        return CLASSES[logits.argmax(1).item()]


def serve_check():
    clf = DefectClassifier("defectnet.pt")
    gen = torch.Generator().manual_seed(7)
    xs, ys = synth_images(400, gen)
    preds = [clf(x) for x in xs]
    acc = sum(p == CLASSES[y] for p, y in zip(preds, ys)) / len(ys)
    print(f"service check on {len(ys)} single patches: acc {acc:.4f}")
    counts = {c: preds.count(c) for c in CLASSES}
    print("predicted class counts:", counts)
    print("same patch 3 times:", [clf(xs[0]) for _ in range(3)], "true:", CLASSES[ys[0]])


if __name__ == "__main__":
    print(f"torch {torch.__version__}")
    train()
    serve_check()
