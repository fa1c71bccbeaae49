"""Churn model for the retention dashboard.

Trains a small MLP on the monthly account snapshot and then exports
gradient x input attributions for every validation account, so the
analysts can see which usage signals drove each churn score.
"""
import json
import resource
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.functional import jacobian

# the batch nodes kill anything above 4 GiB, fail fast instead
resource.setrlimit(resource.RLIMIT_AS, (4 * 1024**3, 4 * 1024**3))

torch.manual_seed(0)
N_TRAIN, N_VAL, N_FEAT, N_CLASSES = 24000, 6000, 64, 3
FEATURES = [f"f{i:02d}" for i in range(N_FEAT)]
CLASSES = ["stays", "downgrades", "churns"]


def make_snapshot(n, gen):
    x = torch.randn(n, N_FEAT, generator=gen)
    w = torch.zeros(N_FEAT, N_CLASSES)
    w[:8, 1] = 1.0
    w[8:16, 2] = 1.2
    w[16:20, 0] = 0.8
    logits = x @ w + 0.3 * torch.randn(n, N_CLASSES, generator=gen)
    return x, logits.argmax(1)


gen = torch.Generator().manual_seed(42)
X_tr, y_tr = make_snapshot(N_TRAIN, gen)
X_val, y_val = make_snapshot(N_VAL, gen)
mean, std = X_tr.mean(0), X_tr.std(0)
X_tr, X_val = (X_tr - mean) / std, (X_val - mean) / std

model = nn.Sequential(
    nn.Linear(N_FEAT, 128), nn.GELU(),
    nn.Linear(128, 128), nn.GELU(),
    nn.Linear(128, N_CLASSES),
)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)

for epoch in range(1, 6):
    model.train()
    perm = torch.randperm(N_TRAIN)
    total = 0.0
    for i in range(0, N_TRAIN, 256):
        idx = perm[i:i + 256]
        loss = F.cross_entropy(model(X_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    model.eval()
    with torch.no_grad():
        acc = (model(X_val).argmax(1) == y_val).float().mean().item()
    print(f"epoch {epoch} train_loss {total / N_TRAIN:.4f} val_acc {acc:.4f}", flush=True)

torch.save(model.state_dict(), "churn_mlp.pt")

# ---- attributions for the dashboard ----
print(f"computing attributions for {N_VAL} validation accounts ...", flush=True)
t0 = time.time()
with torch.no_grad():
    pred = model(X_val).argmax(1)
J = jacobian(model, X_val)                      # d logits / d inputs
rows = torch.arange(N_VAL)
grads = J[rows, pred, rows]                     # (N_VAL, N_FEAT)
attr = grads * X_val
print(f"attributions done in {time.time() - t0:.1f}s, shape {tuple(attr.shape)}")

top = attr.abs().mean(0).argsort(descending=True)[:10]
summary = {FEATURES[i]: round(attr[:, i].abs().mean().item(), 4) for i in top.tolist()}
with open("attributions_summary.json", "w") as f:
    json.dump(summary, f, indent=2)
print("top features:", summary)
