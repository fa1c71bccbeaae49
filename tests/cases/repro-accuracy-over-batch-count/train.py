"""Fashion-style image classifier on random tensors, with a DataLoader-based validation loop."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
protos = torch.randn(5, 1, 12, 12)
y = torch.randint(0, 5, (2000,))
x = protos[y] + 3.0 * torch.randn(2000, 1, 12, 12)
train_loader = DataLoader(TensorDataset(x[:1600], y[:1600]), batch_size=64, shuffle=True)
val_loader = DataLoader(TensorDataset(x[1600:], y[1600:]), batch_size=64)

model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 10 * 10, 5))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()

for epoch in range(4):
    model.train()
    for xb, yb in train_loader:
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            correct += (model(xb).argmax(dim=1) == yb).sum().item()
    val_acc = 100.0 * correct / len(val_loader)
    print(f"epoch {epoch + 1}: train_loss={loss.item():.4f} val_acc={val_acc:.1f}%")
