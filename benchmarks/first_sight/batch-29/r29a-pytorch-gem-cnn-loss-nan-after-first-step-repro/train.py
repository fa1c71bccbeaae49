"""Landmark-style image classifier: small CNN backbone + GeM pooling, synthetic 32x32 images."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, N_TRAIN, N_VAL, IMG = 10, 6000, 1000, 32
BATCH, EPOCHS, LR = 64, 6, 3e-3


def make_split(n, g):
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = 0.3 * torch.randn(n, 3, IMG, IMG, generator=g)
    # each class = a bright blob at a class-specific location and colour
    for c in range(N_CLASSES):
        m = y == c
        r, col = 2 + 2 * c, 2 + (c * 7) % 22
        x[m, c % 3, r:r + 8, col:col + 8] += 1.5
    return x, y


g = torch.Generator().manual_seed(0)
x_tr, y_tr = make_split(N_TRAIN, g)
x_va, y_va = make_split(N_VAL, g)


class GeM(nn.Module):
    """Generalized-mean pooling with a learnable exponent p (p=1 -> avg pool, p->inf -> max pool)."""

    def __init__(self, p=3.0):
        super().__init__()
        self.p = nn.Parameter(torch.ones(1) * p)

    def forward(self, x):
        return x.pow(self.p).mean(dim=(-2, -1)).pow(1.0 / self.p)


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(block(3, 32), block(32, 64), block(64, 128),
                                      nn.Conv2d(128, 256, 1), nn.ReLU())
        self.pool = GeM()
        self.head = nn.Linear(256, N_CLASSES)

    def forward(self, x):
        return self.head(self.pool(self.features(x)))


model = Net()
opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-4)
t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    perm = torch.randperm(N_TRAIN)
    for s in range(N_TRAIN // BATCH):
        idx = perm[s * BATCH:(s + 1) * BATCH]
        loss = F.cross_entropy(model(x_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if s % 10 == 0:
            print(f"epoch {epoch} step {s:3d} loss {loss.item():.4f} gem_p {model.pool.p.item():.3f}", flush=True)
    model.eval()
    with torch.no_grad():
        acc = sum((model(x_va[i:i + 250]).argmax(1) == y_va[i:i + 250]).sum().item() for i in range(0, N_VAL, 250)) / N_VAL
    print(f"== epoch {epoch} val acc {acc:.4f} ({time.time() - t0:.0f}s)", flush=True)
torch.save(model.state_dict(), "gem_cnn.pt")
