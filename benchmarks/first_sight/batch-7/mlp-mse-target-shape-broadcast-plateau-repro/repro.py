# Regression MLP on synthetic housing-like data
import torch, torch.nn as nn
torch.manual_seed(0)
N, D = 2048, 8
X = torch.randn(N, D)
w = torch.randn(D)
y = X @ w + 0.5 * torch.sin(X[:, 0] * 3) + 0.1 * torch.randn(N)

ds = torch.utils.data.TensorDataset(X, y)
dl = torch.utils.data.DataLoader(ds, batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

for epoch in range(15):
    tot = 0.0
    for xb, yb in dl:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(xb)
    print(f"epoch {epoch+1:2d} | train_mse {tot/N:.4f}")
