import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
print(f"torch {torch.__version__}")

# the dataset was exported class by class (one shard per class), then concatenated
C, per_class, D = 10, 2000, 48
centers = torch.randn(C, D)
shards_x, shards_y = [], []
for c in range(C):
    shards_x.append(centers[c] + 3.0 * torch.randn(per_class, D))
    shards_y.append(torch.full((per_class,), c))
X = torch.cat(shards_x)
y = torch.cat(shards_y)
perm = torch.randperm(len(X))
val_idx, tr_idx = perm[:2000].sort().values, perm[2000:].sort().values
train_ds = TensorDataset(X[tr_idx], y[tr_idx])
X_va, y_va = X[val_idx], y[val_idx]

train_loader = DataLoader(train_ds, batch_size=100)

model = nn.Sequential(nn.Linear(D, 128), nn.ReLU(), nn.Linear(128, C))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

step = 0
for epoch in range(6):
    for xb, yb in train_loader:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 15 == 0:
            print(f"epoch {epoch} step {step:4d} | train_loss {loss.item():.4f}")
        step += 1
    with torch.no_grad():
        logits = model(X_va)
        val_loss = nn.functional.cross_entropy(logits, y_va).item()
        val_acc = (logits.argmax(1) == y_va).float().mean().item()
    print(f"== epoch {epoch} | val_loss {val_loss:.4f} | val_acc {val_acc:.3f}")
