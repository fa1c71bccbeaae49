"""Hourly building-load regressor (weather + calendar features -> normalised kWh)."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
EPOCHS, BATCH = 15, 128
OPTIM = dict(lr=1e-3, betas=(0.999, 0.9), eps=1e-8, weight_decay=1e-4)


def make_dataset(n=10_000):
    g = torch.Generator().manual_seed(42)
    hour = torch.randint(0, 24, (n,), generator=g).float()
    dow = torch.randint(0, 7, (n,), generator=g).float()
    temp = 12 + 9 * torch.randn(n, generator=g)
    humid = torch.rand(n, generator=g)
    other = torch.randn(n, 14, generator=g)
    X = torch.stack([torch.sin(2 * math.pi * hour / 24), torch.cos(2 * math.pi * hour / 24),
                     (dow >= 5).float(), (temp - 12) / 9, humid - 0.5], 1)
    X = torch.cat([X, other], 1)
    w = torch.randn(14, 1, generator=g) / 4
    load = (torch.sin(X[:, :1] * 2 + X[:, 3:4]) + 0.5 * X[:, 2:3] * X[:, 1:2] + 0.3 * X[:, 3:4] ** 2
            + torch.sin(other @ w) + 0.1 * torch.randn(n, 1, generator=g))
    return X, (load - load.mean()) / load.std()


def main():
    X, y = make_dataset()
    Xtr, ytr, Xva, yva = X[:8000], y[:8000], X[8000:], y[8000:]
    model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                          nn.Linear(128, 1))
    opt = torch.optim.AdamW(model.parameters(), **OPTIM)
    print(f"train={len(Xtr)} val={len(Xva)} lr={OPTIM['lr']} weight_decay={OPTIM['weight_decay']}", flush=True)
    for epoch in range(EPOCHS):
        model.train(); perm = torch.randperm(len(Xtr)); total = 0.0
        for i in range(0, len(Xtr), BATCH):
            idx = perm[i:i + BATCH]
            loss = nn.functional.mse_loss(model(Xtr[idx]), ytr[idx])
            opt.zero_grad(); loss.backward(); opt.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            val = nn.functional.mse_loss(model(Xva), yva).item()
        gnorm = math.sqrt(sum(p.grad.pow(2).sum().item() for p in model.parameters()))
        print(f"epoch {epoch:2d} train_mse {total / len(Xtr):.4f} val_mse {val:.4f} last_grad_norm {gnorm:.3f}",
              flush=True)


if __name__ == "__main__":
    main()
