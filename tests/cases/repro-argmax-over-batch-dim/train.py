"""Digit-style classifier on synthetic clusters, with a separate evaluate() helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
centers = torch.randn(10, 16) * 0.8
labels = torch.randint(0, 10, (3000,))
feats = centers[labels] + torch.randn(3000, 16)
train_x, train_y, val_x, val_y = feats[:2400], labels[:2400], feats[2400:], labels[2400:]

model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def evaluate(x, y, batch_size=100):
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), batch_size):
            logits = model(x[i : i + batch_size])
            probs = F.softmax(logits, dim=0)
            confidence, preds = probs.max(dim=1)
            correct += (preds == y[i : i + batch_size]).sum().item()
    return correct / len(x)


for epoch in range(10):
    for i in range(0, 2400, 100):
        loss = F.cross_entropy(model(train_x[i : i + 100]), train_y[i : i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 0 or epoch == 9:
        print(f"epoch {epoch + 1} train_loss {loss.item():.4f} val_acc {evaluate(val_x, val_y):.3f}")
