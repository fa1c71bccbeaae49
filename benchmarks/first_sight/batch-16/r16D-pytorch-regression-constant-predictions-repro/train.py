import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(42)
torch.manual_seed(42)

# synthetic housing data: area, rooms, age, distance to center, floor, has_garden
n = 6000
area = rng.uniform(30, 250, n)
rooms = np.clip(np.round(area / 30 + rng.normal(0, 0.7, n)), 1, 8)
age = rng.uniform(0, 80, n)
dist = rng.exponential(8, n)
floor = rng.integers(0, 15, n)
garden = rng.integers(0, 2, n)
price = (2.1 * area + 9 * rooms - 0.8 * age - 6 * np.log1p(dist) + 1.5 * floor + 25 * garden
         + rng.normal(0, 12, n))                       # in k$
X = np.stack([area, rooms, age, dist, floor, garden], 1).astype(np.float32)
y = price.astype(np.float32)

idx = rng.permutation(n)
tr, va = idx[:5000], idx[5000:]
mu, sd = X[tr].mean(0), X[tr].std(0)
y_mu, y_sd = y[tr].mean(), y[tr].std()
Xn = (X - mu) / sd
yn = (y - y_mu) / y_sd

train_dl = DataLoader(TensorDataset(torch.from_numpy(Xn[tr]), torch.from_numpy(yn[tr])), batch_size=128, shuffle=True)
val_dl = DataLoader(TensorDataset(torch.from_numpy(Xn[va]), torch.from_numpy(yn[va])), batch_size=512)

model = nn.Sequential(
    nn.Linear(6, 64), nn.ReLU(),
    nn.Linear(64, 64), nn.ReLU(),
    nn.Linear(64, 1),
)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()


def validate():
    model.eval()
    preds, targets = [], []
    with torch.no_grad():
        for xb, yb in val_dl:
            preds.append(model(xb).squeeze(-1))
            targets.append(yb)
    model.train()
    p = torch.cat(preds) * y_sd + y_mu
    t = torch.cat(targets) * y_sd + y_mu
    mae = (p - t).abs().mean().item()
    r2 = 1 - ((p - t) ** 2).sum().item() / ((t - t.mean()) ** 2).sum().item()
    return mae, r2, p


for epoch in range(30):
    total = 0.0
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    if epoch % 5 == 0 or epoch == 29:
        mae, r2, p = validate()
        print(f"epoch {epoch:2d}  train_mse {total / len(tr):.4f}  val_mae {mae:7.2f}k$  val_r2 {r2:.3f}")

mae, r2, p = validate()
print("first 8 val predictions (k$):", [round(v, 1) for v in p[:8].tolist()])
print("first 8 val targets     (k$):", [round(v, 1) for v in y[va][:8].tolist()])
print(f"prediction std {p.std().item():.2f}  target std {y[va].std():.2f}")
