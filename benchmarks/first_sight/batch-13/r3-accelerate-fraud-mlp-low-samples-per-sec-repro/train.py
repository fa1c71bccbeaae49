"""Card-transaction fraud model (MLP on 32 engineered features) with Accelerate.

Fraud is ~0.8% of transactions, so batches are drawn class-balanced with a
weighted sampler (each class gets half of the draws).
"""
import time

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, Sampler, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

N_TX = 300_000
N_FEAT = 32
BATCH_SIZE = 256
SAMPLES_PER_EPOCH = 7_680       # 30 batches
EPOCHS = 2


def load_transactions():
    X = rng.normal(size=(N_TX, N_FEAT)).astype(np.float32)
    w = rng.normal(size=N_FEAT)
    score = X @ w + 0.8 * X[:, 0] * X[:, 1]
    y = (score > np.quantile(score, 0.992)).astype(np.float32)
    return X, y


class BalancedSampler(Sampler):
    """Draws indices with replacement so that both classes are equally likely."""

    def __init__(self, labels, num_samples, seed=0):
        labels = np.asarray(labels)
        class_freq = np.bincount(labels.astype(int)) / len(labels)
        w = 1.0 / class_freq[labels.astype(int)]
        self.p = w / w.sum()
        self.n = len(labels)
        self.num_samples = num_samples
        self.rng = np.random.RandomState(seed)

    def __len__(self):
        return self.num_samples

    def __iter__(self):
        for _ in range(self.num_samples):
            yield int(self.rng.choice(self.n, p=self.p))


def main():
    accelerator = Accelerator()
    X, y = load_transactions()
    n_val = 20_000
    train_ds = TensorDataset(torch.from_numpy(X[n_val:]), torch.from_numpy(y[n_val:]))
    val_X, val_y = torch.from_numpy(X[:n_val]), torch.from_numpy(y[:n_val])

    sampler = BalancedSampler(y[n_val:], SAMPLES_PER_EPOCH)
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, sampler=sampler)

    model = nn.Sequential(nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                          nn.Linear(128, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, opt, train_dl = accelerator.prepare(model, opt, train_dl)
    loss_fn = nn.BCEWithLogitsLoss()

    accelerator.print(f"{len(train_ds)} train transactions, fraud rate {y.mean():.4f}, "
                      f"{len(train_dl)} batches/epoch")
    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        seen = 0
        for step, (xb, yb) in enumerate(train_dl):
            loss = loss_fn(model(xb).squeeze(1), yb)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
            seen += len(xb)
            if step % 10 == 9:
                accelerator.print(f"epoch {epoch} step {step + 1} loss {loss.item():.4f} | "
                                  f"{seen / (time.time() - t0):.0f} samples/s")
        model.eval()
        with torch.no_grad():
            prob = torch.sigmoid(model(val_X).squeeze(1))
        pred = prob > 0.5
        tp = (pred & (val_y == 1)).sum().item()
        prec = tp / max(pred.sum().item(), 1)
        rec = tp / max((val_y == 1).sum().item(), 1)
        accelerator.print(f"epoch {epoch} done in {time.time() - t0:.1f}s | val precision "
                          f"{prec:.3f} recall {rec:.3f}")


if __name__ == "__main__":
    main()
