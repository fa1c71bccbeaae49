"""Phishing-email filter: hashed word + bigram features, logistic-regression-style linear model."""
import random
import time
import zlib
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_BUCKETS = 2 ** 20          # same default as sklearn's HashingVectorizer
N_EMAILS = 30000
BATCH_SIZE = 256
EPOCHS = 5
LR = 0.05

SAFE = "meeting agenda attached thanks team report schedule lunch project review notes draft".split()
PHISH = "verify account suspended click link password urgent invoice wire transfer confirm login".split()
COMMON = "the a to your our please we you this is for of and on at with from by".split()


def make_emails(seed=0):
    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(N_EMAILS):
        y = 1 if rng.random() < 0.3 else 0
        pool = PHISH if y else SAFE
        words = [rng.choice(pool if rng.random() < 0.25 else COMMON) for _ in range(rng.randint(15, 120))]
        words += [f"id{rng.randrange(10**6)}" for _ in range(rng.randint(0, 5))]
        texts.append(" ".join(words))
        labels.append(y)
    return texts, labels


def hash_features(texts):
    rows, cols, vals = [], [], []
    for r, text in enumerate(texts):
        toks = text.split()
        grams = toks + [a + " " + b for a, b in zip(toks, toks[1:])]
        counts = {}
        for g in grams:
            h = zlib.crc32(g.encode()) % N_BUCKETS
            counts[h] = counts.get(h, 0) + 1
        norm = np.sqrt(sum(c * c for c in counts.values()))
        for h, c in counts.items():
            rows.append(r)
            cols.append(h)
            vals.append(c / norm)
    idx = torch.tensor([rows, cols])
    return torch.sparse_coo_tensor(idx, torch.tensor(vals, dtype=torch.float32), (len(texts), N_BUCKETS))


def main():
    torch.manual_seed(0)
    t0 = time.time()
    texts, labels = make_emails()
    X = hash_features(texts)
    y = torch.tensor(labels, dtype=torch.float32)
    print(f"hashed {N_EMAILS} emails into {N_BUCKETS} buckets, nnz={X._nnz()} "
          f"({time.time() - t0:.1f}s)", flush=True)

    n_val = 3000
    X = X.to_dense()
    train_ds = TensorDataset(X[n_val:], y[n_val:])
    val_ds = TensorDataset(X[:n_val], y[:n_val])
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1024)

    model = nn.Linear(N_BUCKETS, 1)
    opt = torch.optim.Adagrad(model.parameters(), lr=LR)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(EPOCHS):
        total, n = 0.0, 0
        for xb, yb in train_dl:
            loss = loss_fn(model(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
            n += len(yb)
        with torch.no_grad():
            correct = sum(((model(xb).squeeze(-1) > 0).float() == yb).sum().item() for xb, yb in val_dl)
        print(f"epoch {epoch} train_loss {total / n:.4f} val_acc {correct / n_val:.4f}", flush=True)
    torch.save(model.state_dict(), "phish_filter.pt")


if __name__ == "__main__":
    main()
