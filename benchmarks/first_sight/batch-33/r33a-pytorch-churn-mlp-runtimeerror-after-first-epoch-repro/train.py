"""Churn model for the subscriptions team: MLP on 40 account features, BCE with logits.

Logs train loss/AUC per epoch and validation AUC; keeps the best checkpoint by val AUC.
"""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
N_FEAT, BATCH, EPOCHS, LR = 40, 256, 5, 2e-3


def make_accounts(n):
    X = rng.normal(size=(n, N_FEAT)).astype(np.float32)
    logit = 1.4 * X[:, 0] - 1.1 * X[:, 3] + 0.8 * X[:, 7] * X[:, 9] - 2.0
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return torch.from_numpy(X), torch.from_numpy(y)


def roc_auc(y_true, scores):
    """Mann-Whitney U formulation of ROC AUC (no ties handling needed for float scores)."""
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = y_true == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


X_tr, y_tr = make_accounts(60000)
X_va, y_va = make_accounts(10000)
print(f"train {len(y_tr)} (churn rate {y_tr.mean():.3f})  val {len(y_va)} (churn rate {y_va.mean():.3f})")
train_dl = DataLoader(TensorDataset(X_tr, y_tr), batch_size=BATCH, shuffle=True)

model = nn.Sequential(
    nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Dropout(0.1),
    nn.Linear(128, 64), nn.ReLU(),
    nn.Linear(64, 1),
)
opt = torch.optim.Adam(model.parameters(), lr=LR)
loss_fn = nn.BCEWithLogitsLoss()
best_auc = 0.0

for epoch in range(EPOCHS):
    model.train()
    t0 = time.time()
    epoch_loss, scores, targets = 0.0, [], []
    for step, (xb, yb) in enumerate(train_dl):
        logits = model(xb).squeeze(1)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item() * len(yb)
        scores.append(torch.sigmoid(logits))
        targets.append(yb)
        if step % 50 == 0:
            print(f"epoch {epoch} step {step:3d}/{len(train_dl)} loss {loss.item():.4f}")

    train_auc = roc_auc(torch.cat(targets).numpy(), torch.cat(scores).numpy())

    model.eval()
    with torch.no_grad():
        val_scores = torch.sigmoid(model(X_va).squeeze(1)).numpy()
    val_auc = roc_auc(y_va.numpy(), val_scores)
    print(f"epoch {epoch} loss {epoch_loss / len(y_tr):.4f} train_auc {train_auc:.4f} val_auc {val_auc:.4f} "
          f"({time.time() - t0:.1f}s)")
    if val_auc > best_auc:
        best_auc = val_auc
        torch.save(model.state_dict(), "churn_mlp_best.pt")

print(f"best val_auc {best_auc:.4f}")
