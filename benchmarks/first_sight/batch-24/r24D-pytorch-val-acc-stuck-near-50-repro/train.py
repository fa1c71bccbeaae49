import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_churn_like(n, seed):
    """Synthetic tabular binary task: 20 numeric features, label from a noisy nonlinear rule."""
    g = np.random.default_rng(seed)
    x = g.normal(size=(n, 20)).astype(np.float32)
    score = 1.5 * x[:, 0] - 2.0 * x[:, 1] * x[:, 2] + np.sin(2 * x[:, 3]) + 0.8 * x[:, 4] ** 2 - 0.8
    y = (score + g.normal(0, 0.5, size=n) > 0).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(y)


class TabularNet(nn.Module):
    def __init__(self, d_in, hidden=128, p_drop=0.1):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(d_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
        )
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.body(x))


@torch.no_grad()
def evaluate(model, loader, loss_fn):
    model.eval()
    loss_sum, n = 0.0, 0
    acc_sum, tp, fp, fn = 0.0, 0.0, 0.0, 0.0
    for xb, yb in loader:
        logits = model(xb)
        loss_sum += loss_fn(logits.squeeze(1), yb).item() * len(yb)
        preds = (torch.sigmoid(logits) > 0.5).float()
        acc_sum += (preds == yb).float().mean().item() * len(yb)
        tp += ((preds == 1) & (yb == 1)).sum().item()
        fp += ((preds == 1) & (yb == 0)).sum().item()
        fn += ((preds == 0) & (yb == 1)).sum().item()
        n += len(yb)
    precision = tp / max(tp + fp, 1)
    recall = tp / max(tp + fn, 1)
    f1 = 2 * precision * recall / max(precision + recall, 1e-8)
    return loss_sum / n, acc_sum / n, f1


def main():
    torch.manual_seed(0)
    x_tr, y_tr = make_churn_like(30000, seed=0)
    x_va, y_va = make_churn_like(6000, seed=1)
    mu, sd = x_tr.mean(0), x_tr.std(0)
    x_tr, x_va = (x_tr - mu) / sd, (x_va - mu) / sd
    print(f"torch {torch.__version__} | train pos rate {y_tr.mean():.3f} | val pos rate {y_va.mean():.3f}")

    train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=256, shuffle=True)
    val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=1024)

    model = TabularNet(20)
    loss_fn = nn.BCEWithLogitsLoss()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    best_f1 = -1.0
    for epoch in range(12):
        model.train()
        t0, run_loss = time.time(), 0.0
        for xb, yb in train_dl:
            logits = model(xb).squeeze(1)
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run_loss += loss.item() * len(yb)
        val_loss, val_acc, val_f1 = evaluate(model, val_dl, loss_fn)
        tag = ""
        if val_f1 > best_f1:
            best_f1 = val_f1
            torch.save(model.state_dict(), "best.pt")
            tag = " *saved*"
        print(f"epoch {epoch:2d} | train_loss {run_loss / len(x_tr):.4f} | val_loss {val_loss:.4f} "
              f"| val_acc {val_acc:.4f} | val_f1 {val_f1:.4f} | {time.time() - t0:.1f}s{tag}")


if __name__ == "__main__":
    main()
