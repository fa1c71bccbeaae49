# regression on tabular data: predict house price (standardized) from 8 features
import torch, torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)

N = 8192
X = torch.randn(N, 8)
true_w = torch.tensor([1.5, -2.0, 0.7, 0.0, 3.1, -0.4, 0.9, 1.2])
y = X @ true_w + 0.1 * torch.randn(N)          # shape [N]
y = (y - y.mean()) / y.std()

ds = TensorDataset(X, y)
dl = DataLoader(ds, batch_size=128, shuffle=True)

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.MSELoss()

for epoch in range(15):
    tot, n = 0.0, 0
    for xb, yb in dl:
        pred = model(xb)
        loss = crit(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(xb); n += len(xb)
    print(f"epoch {epoch:2d} train_mse {tot/n:.4f}")
