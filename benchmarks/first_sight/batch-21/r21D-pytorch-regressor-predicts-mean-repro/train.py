"""House-price regressor: MLP on standardized numeric features, MSE on log-price."""
import math
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class HousingDataset(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 12, generator=g)
        w = torch.linspace(-1.0, 1.0, 12)
        signal = self.x @ w + 0.5 * torch.sin(2 * self.x[:, 0]) + 0.3 * self.x[:, 1] * self.x[:, 2]
        self.y = 12.0 + 0.4 * signal + 0.05 * torch.randn(n, generator=g)   # log price

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Regressor(nn.Module):
    def __init__(self, d_in, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


def evaluate(model, loader):
    model.eval()
    se, n, ys, preds = 0.0, 0, [], []
    with torch.no_grad():
        for xb, yb in loader:
            p = model(xb).view(-1)
            se += ((p - yb) ** 2).sum().item()
            n += len(yb)
            ys.append(yb)
            preds.append(p)
    y = torch.cat(ys)
    p = torch.cat(preds)
    r2 = 1 - ((y - p) ** 2).sum() / ((y - y.mean()) ** 2).sum()
    return math.sqrt(se / n), r2.item()


train_ds = HousingDataset(16000, seed=1)
val_ds = HousingDataset(4000, seed=2)
train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=512)

model = Regressor(12)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=20)
criterion = nn.MSELoss()

print(f"target std (val) = {val_ds.y.std():.4f}")
for epoch in range(20):
    model.train()
    t0, total, count = time.time(), 0.0, 0
    for xb, yb in train_dl:
        pred = model(xb)
        loss = criterion(pred, yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        count += len(yb)
    sched.step()
    rmse, r2 = evaluate(model, val_dl)
    if epoch % 2 == 0 or epoch == 19:
        print(f"epoch {epoch:2d} train_mse {total / count:.4f} val_rmse {rmse:.4f} "
              f"val_r2 {r2:+.4f} lr {sched.get_last_lr()[0]:.2e} ({time.time() - t0:.1f}s)")
