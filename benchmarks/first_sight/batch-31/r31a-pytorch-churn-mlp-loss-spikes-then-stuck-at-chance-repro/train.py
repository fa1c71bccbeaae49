"""Churn-propensity MLP on the weekly feature export (synthetic stand-in here)."""
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


@dataclass
class TrainConfig:
    n_features: int = 40
    hidden: int = 256
    depth: int = 3
    batch_size: int = 256
    epochs: int = 6
    lr: float = 1e-3
    weight_decay: float = 0.1
    betas: tuple = (0.9, 0.99)
    log_every: int = 10


class ChurnMLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        layers, d = [], cfg.n_features
        for _ in range(cfg.depth):
            layers += [nn.Linear(d, cfg.hidden), nn.ReLU()]
            d = cfg.hidden
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(d, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)

    def configure_optimizers(self, weight_decay, learning_rate, betas):
        decay = [p for p in self.parameters() if p.dim() >= 2]
        no_decay = [p for p in self.parameters() if p.dim() < 2]
        groups = [{"params": decay, "weight_decay": weight_decay},
                  {"params": no_decay, "weight_decay": 0.0}]
        print(f"decayed tensors: {len(decay)}, non-decayed tensors: {len(no_decay)}")
        return torch.optim.AdamW(groups, lr=learning_rate, betas=betas)


def load_export(n, n_features, seed=42):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, n_features, generator=g)
    w = torch.randn(n_features, generator=g) * (torch.rand(n_features, generator=g) < 0.4)
    logit = x @ w / 3 + 0.8 * torch.sin(2 * x[:, 0]) * x[:, 1] - 0.5 * x[:, 2] ** 2 + 0.5
    y = (torch.rand(n, generator=g) < torch.sigmoid(2 * logit)).float()
    return x, y


def main():
    cfg = TrainConfig()
    x, y = load_export(30000, cfg.n_features)
    train_dl = DataLoader(TensorDataset(x[:25000], y[:25000]), batch_size=cfg.batch_size, shuffle=True)
    x_val, y_val = x[25000:], y[25000:]
    print(f"train {len(train_dl.dataset)} rows, val {len(x_val)} rows, positive rate {y.mean():.3f}")

    model = ChurnMLP(cfg)
    optimizer = model.configure_optimizers(cfg.lr, cfg.weight_decay, cfg.betas)
    t0, step = time.time(), 0
    for epoch in range(cfg.epochs):
        model.train()
        total = 0.0
        for xb, yb in train_dl:
            loss = F.binary_cross_entropy_with_logits(model(xb), yb)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            total += loss.item()
            if step % cfg.log_every == 0:
                print(f"epoch {epoch} step {step:4d} loss {loss.item():.4f}", flush=True)
            step += 1
        model.eval()
        with torch.no_grad():
            logits = model(x_val)
            val_loss = F.binary_cross_entropy_with_logits(logits, y_val).item()
            acc = ((logits > 0).float() == y_val).float().mean().item()
        print(f"epoch {epoch} train_loss {total / len(train_dl):.4f} val_loss {val_loss:.4f} "
              f"val_acc {acc:.4f} ({time.time() - t0:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
