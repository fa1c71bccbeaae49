"""Fraud scoring model: MLP over 64 engineered transaction features."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class TransactionDataset(Dataset):
    def __init__(self, features: np.ndarray, labels: np.ndarray):
        self.features = features
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        x = torch.tensor(self.features, dtype=torch.float32)[idx]
        y = torch.tensor(self.labels[idx], dtype=torch.float32)
        return x, y


def make_split(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 64))
    score = X[:, :8] @ rng.normal(size=8) + 0.5 * X[:, 8] * X[:, 9]
    y = (score > np.quantile(score, 0.9)).astype(np.float32)     # ~10% positives
    return X, y


X_tr, y_tr = make_split(60000, 1)
X_va, y_va = make_split(5000, 2)
train_dl = DataLoader(TransactionDataset(X_tr, y_tr), batch_size=256, shuffle=True)
val_dl = DataLoader(TransactionDataset(X_va, y_va), batch_size=1000)

model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(9.0))

print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, "
      f"train batches/epoch {len(train_dl)}")
MAX_STEPS = 40
t_data = t_compute = 0.0
t_last = time.perf_counter()
model.train()
for step, (xb, yb) in enumerate(train_dl, 1):
    t0 = time.perf_counter()
    t_data += t0 - t_last
    loss = crit(model(xb).squeeze(1), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    t_last = time.perf_counter()
    t_compute += t_last - t0
    if step % 10 == 0:
        sps = step * 256 / (t_data + t_compute)
        eta = len(train_dl) * 256 / sps
        print(f"step {step:3d} loss {loss.item():.4f} | {sps:,.0f} samples/s | "
              f"data {t_data / step * 1000:.1f} ms/batch, compute {t_compute / step * 1000:.1f} ms/batch | "
              f"epoch ETA {eta / 60:.1f} min")
    if step == MAX_STEPS:
        break

model.eval()
t0 = time.perf_counter()
with torch.no_grad():
    tp = fp = fn = 0
    for xb, yb in val_dl:
        p = (model(xb).squeeze(1) > 0).float()
        tp += (p * yb).sum().item()
        fp += (p * (1 - yb)).sum().item()
        fn += ((1 - p) * yb).sum().item()
print(f"val precision {tp / max(tp + fp, 1):.3f} recall {tp / max(tp + fn, 1):.3f} "
      f"(eval took {time.perf_counter() - t0:.1f}s for {len(val_dl.dataset)} rows)")
