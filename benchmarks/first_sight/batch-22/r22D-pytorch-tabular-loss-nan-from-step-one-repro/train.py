"""Churn classifier on exported customer features (synthetic stand-in for the CSV export)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

FEATURES = ["tenure_months", "monthly_spend", "n_tickets", "n_logins_30d",
            "plan_tier", "is_active", "discount_pct", "days_since_login"]


def load_export(n, seed):
    rng = np.random.default_rng(seed)
    tenure = rng.integers(1, 72, n)
    spend = rng.gamma(2.0, 30.0, n)
    tickets = rng.poisson(1.5, n)
    logins = rng.poisson(12, n)
    tier = rng.integers(0, 3, n)
    active = np.ones(n)
    discount = rng.choice([0, 5, 10, 20], n)
    since = rng.exponential(6.0, n)
    X = np.stack([tenure, spend, tickets, logins, tier, active, discount, since], 1).astype(np.float32)
    logit = -0.04 * tenure + 0.5 * tickets - 0.08 * logins + 0.12 * since + 0.01 * spend - 0.5
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return X, y


class ChurnDataset(Dataset):
    def __init__(self, X, y, stats=None):
        X = torch.from_numpy(X)
        if stats is None:
            stats = (X.mean(0), X.std(0))
        self.stats = stats
        mean, std = stats
        self.X = (X - mean) / std
        self.y = torch.from_numpy(y)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


def main():
    torch.manual_seed(0)
    Xtr, ytr = load_export(30000, 0)
    Xva, yva = load_export(5000, 1)
    train_ds = ChurnDataset(Xtr, ytr)
    val_ds = ChurnDataset(Xva, yva, stats=train_ds.stats)
    print(f"train {len(train_ds)} rows, churn rate {ytr.mean():.3f}; val {len(val_ds)} rows")

    train_dl = DataLoader(train_ds, batch_size=256, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1024)

    model = nn.Sequential(nn.Linear(len(FEATURES), 64), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    crit = nn.BCEWithLogitsLoss()

    step = 0
    for epoch in range(5):
        model.train()
        for xb, yb in train_dl:
            logits = model(xb).squeeze(1)
            loss = crit(logits, yb)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            if step % 40 == 0:
                print(f"epoch {epoch} step {step:4d} loss {loss.item():.4f}")
            step += 1

        model.eval()
        correct, total, vloss = 0, 0, 0.0
        with torch.no_grad():
            for xb, yb in val_dl:
                logits = model(xb).squeeze(1)
                vloss += crit(logits, yb).item() * len(yb)
                correct += ((logits > 0).float() == yb).sum().item()
                total += len(yb)
        print(f"epoch {epoch} val_loss {vloss / total:.4f} val_acc {correct / total:.4f}")


if __name__ == "__main__":
    main()
