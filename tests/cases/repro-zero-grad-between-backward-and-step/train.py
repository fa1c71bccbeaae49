"""Spam classifier on hashed bag-of-words features."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = (torch.rand(2000, 256) < 0.05).float()
w_true = torch.randn(256)
y = ((x @ w_true) > 0).long()
model = nn.Sequential(nn.Linear(256, 64), nn.ReLU(), nn.Linear(64, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)

for epoch in range(8):
    for i in range(0, 2000, 100):
        logits = model(x[i : i + 100])
        loss = F.cross_entropy(logits, y[i : i + 100])
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    print(f"epoch {epoch + 1} loss {loss.item():.4f} train_acc {acc:.3f}")
