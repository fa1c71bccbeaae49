# Train a small classifier,
# then report test accuracy.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

def make_data(n):
    X = torch.randn(n, 20)
    w = torch.linspace(-1, 1, 20)
    y = (X @ w > 0).long()
    return X, y

Xtr, ytr = make_data(4000)
Xte, yte = make_data(1000)
train_ds = TensorDataset(Xtr, ytr)
test_ds = TensorDataset(Xte, yte)

train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(5):
    model.train()
    correct = total = 0
    for xb, yb in train_loader:
        logits = model(xb)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (logits.argmax(1) == yb).sum().item()
        total += len(yb)
    print(f"epoch {epoch} train_loss {loss.item():.4f} train_acc {correct / total:.4f}")

model.eval()
preds = []
with torch.no_grad():
    for xb, _ in test_loader:
        preds.append(model(xb).argmax(1))
preds = torch.cat(preds)
test_acc = (preds == test_ds.tensors[1]).float().mean().item()
print(f"test_acc {test_acc:.4f}")
