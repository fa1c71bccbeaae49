import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# synthetic house-price style regression: 8 standardized features
X = torch.randn(8192, 8)
true_w = torch.randn(8, 1)
y = X @ true_w + 0.3 * torch.sin(3 * X[:, :1]) + 0.1 * torch.randn(8192, 1)

loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()

global_step = 0
for epoch in range(10):
    epoch_loss = 0.0
    for xb, yb in loader:
        pred = model(xb)
        loss = criterion(pred, yb)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
        if global_step % 40 == 0:
            print(f"epoch {epoch} step {global_step} loss {loss.item():.4f}")
        global_step += 1
    print(f"epoch {epoch} mean_loss {epoch_loss / len(loader):.4f}")
