import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

# Multi-label tagging of short product descriptions (bag-of-words features -> 8 tags)
VOCAB, TAGS, N = 300, 8, 12000
tag_words = [rng.choice(VOCAB, 12, replace=False) for _ in range(TAGS)]
tag_prior = np.array([0.30, 0.22, 0.15, 0.10, 0.08, 0.05, 0.03, 0.02])
Y = (rng.random((N, TAGS)) < tag_prior).astype(np.float32)
X = rng.poisson(0.05, (N, VOCAB)).astype(np.float32)
for t in range(TAGS):
    rows = np.where(Y[:, t] == 1)[0]
    for r in rows:
        X[r, rng.choice(tag_words[t], 3, replace=False)] += 1
X = np.log1p(X)

split = 10000
train_dl = DataLoader(TensorDataset(torch.from_numpy(X[:split]), torch.from_numpy(Y[:split])), batch_size=128, shuffle=True)
Xva, Yva = torch.from_numpy(X[split:]), torch.from_numpy(Y[split:])

pos_weight = torch.from_numpy((1 - Y[:split].mean(0)) / Y[:split].mean(0))
print("pos_weight per tag:", [round(w, 1) for w in pos_weight.tolist()])


def weighted_bce(logits, targets):
    p = torch.sigmoid(logits)
    loss = -(pos_weight * targets * torch.log(p) + (1 - targets) * torch.log(1 - p))
    return loss.mean()


model = nn.Sequential(nn.Linear(VOCAB, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, TAGS))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(8):
    model.train()
    total, n = 0.0, 0
    for step, (xb, yb) in enumerate(train_dl):
        loss = weighted_bce(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        n += len(xb)
        if step % 20 == 0:
            print(f"  epoch {epoch} step {step:2d} loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        logits = model(Xva)
        pred = (logits > 0).float()
        tp = (pred * Yva).sum(0); fp = (pred * (1 - Yva)).sum(0); fn = ((1 - pred) * Yva).sum(0)
        f1 = (2 * tp / (2 * tp + fp + fn).clamp(min=1)).mean().item()
    print(f"epoch {epoch:2d} train_loss {total / n:.4f} val_macro_f1 {f1:.4f}")
