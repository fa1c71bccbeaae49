"""Small CNN on synthetic 16x16 glyph images; LR is cut when validation accuracy stops improving."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES = 10
EPOCHS = 14
torch.manual_seed(0)


def make_glyphs(n, g):
    """Each class is a fixed random 16x16 template; samples are shifted, scaled and noisy copies."""
    templates = (torch.rand(N_CLASSES, 1, 16, 16, generator=torch.Generator().manual_seed(42)) > 0.6).float()
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = templates[y] * (0.5 + torch.rand(n, 1, 1, 1, generator=g))
    shifts = torch.randint(-2, 3, (n, 2), generator=g)
    x = torch.stack([torch.roll(xi, (int(s[0]), int(s[1])), dims=(1, 2)) for xi, s in zip(x, shifts)])
    x = x + 0.6 * torch.randn(x.shape, generator=g)
    return x, y


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 4 * 4, N_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def evaluate(model, dl):
    model.eval()
    correct = n = 0
    with torch.no_grad():
        for x, y in dl:
            correct += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    model.train()
    return correct / n


def main():
    g = torch.Generator().manual_seed(0)
    xtr, ytr = make_glyphs(6000, g)
    xva, yva = make_glyphs(2000, g)
    train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True)
    val_dl = DataLoader(TensorDataset(xva, yva), batch_size=500)

    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.005, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.1, patience=2)

    for epoch in range(EPOCHS):
        t0 = time.time()
        tot = 0.0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        val_acc = evaluate(model, val_dl)
        sched.step(val_acc)
        print(f"epoch {epoch:2d} train_loss {tot / len(xtr):.4f} val_acc {val_acc:.4f} "
              f"lr {opt.param_groups[0]['lr']:.2e} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
