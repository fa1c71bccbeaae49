"""Delivery-time regressor that also predicts its own uncertainty (Gaussian NLL).

Features: distance, hour of day, weekday flag, courier load, rain.  Target: minutes.
The net outputs a mean and a variance per order; loss = Gaussian negative log-likelihood.
"""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(2)
torch.manual_seed(0)


def make_orders(n):
    dist = torch.rand(n) * 10                    # km
    hour = torch.randint(8, 23, (n,)).float()
    weekday = (torch.rand(n) < 5 / 7).float()
    load = torch.rand(n)
    rain = (torch.rand(n) < 0.2).float()
    mean = 8 + 3.0 * dist + 6 * load + 5 * rain + 4 * weekday * ((hour > 16) & (hour < 20)).float()
    # short hops are very predictable, long rainy trips are not
    noise_sd = 0.05 + 0.3 * dist * (1 + 2 * rain)
    y = mean + noise_sd * torch.randn(n)
    X = torch.stack([dist / 10, (hour - 15) / 7, weekday, load, rain], dim=1)
    return X, ((y - 30) / 10).unsqueeze(1)      # standardised target


class DeliveryNet(nn.Module):
    def __init__(self, d_in=5, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.mean_head = nn.Linear(hidden, 1)
        self.var_head = nn.Linear(hidden, 1)
        nn.init.constant_(self.var_head.bias, 1.0)   # start around unit variance

    def forward(self, x):
        h = self.body(x)
        mu = self.mean_head(h)
        var = torch.relu(self.var_head(h))           # variance must be non-negative
        return mu, var


def gaussian_nll(mu, var, y):
    return (0.5 * torch.log(var) + 0.5 * (y - mu) ** 2 / var + 0.5 * math.log(2 * math.pi)).mean()


Xtr, ytr = make_orders(8000)
Xva, yva = make_orders(2000)
train_dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=128, shuffle=True)

model = DeliveryNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

step = 0
for epoch in range(1, 16):
    model.train()
    tot = 0.0
    for xb, yb in train_dl:
        mu, var = model(xb)
        loss = gaussian_nll(mu, var, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(xb)
        step += 1
        if step % 25 == 0:
            print(f"  step {step:5d}  nll {loss.item():.4f}  mean_var {var.mean().item():.4f}")
    model.eval()
    with torch.no_grad():
        mu, var = model(Xva)
        val_nll = gaussian_nll(mu, var, yva).item()
        mae_min = (10 * (mu - yva).abs()).mean().item()
    print(f"epoch {epoch:2d}  train_nll {tot / len(Xtr):8.4f}  val_nll {val_nll:8.4f}  val_MAE {mae_min:6.2f} min")
