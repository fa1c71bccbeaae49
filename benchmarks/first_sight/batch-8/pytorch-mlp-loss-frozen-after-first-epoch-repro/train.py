import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

N_TRAIN, N_VAL, DIM, CLASSES = 8000, 2000, 64, 10
centers = torch.randn(CLASSES, DIM) * 0.6
g = torch.Generator().manual_seed(1)
W = torch.randn(DIM, DIM, generator=g) * 0.3
def make(n):
    y = torch.randint(0, CLASSES, (n,))
    x = centers[y] + torch.randn(n, DIM)
    return torch.tanh(x @ W), y

xtr, ytr = make(N_TRAIN)
xva, yva = make(N_VAL)
train_loader = DataLoader(TensorDataset(xtr, ytr), batch_size=128, shuffle=True)
val_loader = DataLoader(TensorDataset(xva, yva), batch_size=512)

model = nn.Sequential(
    nn.Linear(DIM, 256), nn.ReLU(),
    nn.Linear(256, 256), nn.ReLU(),
    nn.Linear(256, CLASSES),
)
EPOCHS = 15
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.1)
criterion = nn.CrossEntropyLoss()

for epoch in range(EPOCHS):
    t0 = time.time()
    model.train()
    tot, n = 0.0, 0
    for x, y in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        tot += loss.item() * len(y)
        n += len(y)
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in val_loader:
            correct += (model(x).argmax(1) == y).sum().item()
    print(f"epoch {epoch + 1:2d}/{EPOCHS} train_loss {tot / n:.4f} val_acc {correct / N_VAL:.4f} ({time.time() - t0:.1f}s)")
