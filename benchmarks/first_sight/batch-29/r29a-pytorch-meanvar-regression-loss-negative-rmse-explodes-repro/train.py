"""Heteroscedastic regression: predict delivery time (minutes) and its uncertainty from order features."""
import math
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
N_TRAIN, N_VAL, N_FEAT = 16000, 4000, 12
BATCH, EPOCHS, LR = 256, 15, 1e-3


def make_data(n, g):
    x = torch.randn(n, N_FEAT, generator=g)
    dist_km = 2.0 + 1.5 * x[:, 0].abs()
    rush = (x[:, 1] > 0.8).float()
    mean = 12 + 6 * dist_km + 9 * rush + 2 * x[:, 2] - 1.5 * x[:, 3] * x[:, 4]
    std = 2.0 + 6.0 * rush + 0.8 * dist_km
    y = mean + std * torch.randn(n, generator=g)
    return x, y


g = torch.Generator().manual_seed(1)
x_tr, y_tr = make_data(N_TRAIN, g)
x_va, y_va = make_data(N_VAL, g)
y_mu, y_sd = y_tr.mean(), y_tr.std()


class MeanVarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_FEAT, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU())
        self.mu = nn.Linear(128, 1)
        self.log_var = nn.Linear(128, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h).squeeze(-1), self.log_var(h).squeeze(-1)


def gaussian_nll(mu, log_var, target):
    # negative log-likelihood of N(mu, exp(log_var)), constant term dropped
    return (0.5 * (target - mu) ** 2 * torch.exp(-log_var) - 0.5 * log_var).mean()


model = MeanVarNet()
opt = torch.optim.Adam(model.parameters(), lr=LR)
t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    perm = torch.randperm(N_TRAIN)
    tot = 0.0
    for s in range(N_TRAIN // BATCH):
        idx = perm[s * BATCH:(s + 1) * BATCH]
        mu, log_var = model(x_tr[idx])
        loss = gaussian_nll(mu, log_var, (y_tr[idx] - y_mu) / y_sd)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item()
    model.eval()
    with torch.no_grad():
        mu, log_var = model(x_va)
        pred = mu * y_sd + y_mu
        pred_std = torch.exp(0.5 * log_var) * y_sd
        rmse = torch.sqrt(((pred - y_va) ** 2).mean()).item()
        z = (y_va - pred) / pred_std
        cover90 = (z.abs() < 1.645).float().mean().item()
    print(f"epoch {epoch:2d} train_nll {tot / (N_TRAIN // BATCH):9.3f} val_rmse {rmse:7.2f} min "
          f"mean_pred_std {pred_std.mean().item():10.2f} min 90%-interval coverage {cover90:.3f} "
          f"({time.time() - t0:.1f}s)")
print(f"baseline (predict train mean) rmse: {torch.sqrt(((y_va - y_mu) ** 2).mean()).item():.2f} min")
torch.save(model.state_dict(), "eta_meanvar.pt")
