import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

SEED = 8
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)
torch.set_num_threads(1)

CLASS_NAMES = ["cargo", "fishing", "passenger", "sailing", "tanker", "tug"]
NUM_FEATURES = 24
BATCH_SIZE = 64
EPOCHS = 8
LR = 1e-3


def load_split(n, rng):
    """Stand-in for reading a CSV export: a list of (features, label string) rows."""
    centers = np.random.RandomState(0).randn(len(CLASS_NAMES), NUM_FEATURES) * 0.6
    rows = []
    for _ in range(n):
        c = rng.randrange(len(CLASS_NAMES))
        feats = centers[c] + rng.gauss(0, 1) * 0.1 + np.array([rng.gauss(0, 1) for _ in range(NUM_FEATURES)])
        rows.append((feats.astype(np.float32), CLASS_NAMES[c]))
    return rows


def encode_labels(labels):
    vocab = {}
    ids = []
    for lab in labels:
        if lab not in vocab:
            vocab[lab] = len(vocab)
        ids.append(vocab[lab])
    return np.array(ids, dtype=np.int64), vocab


def to_tensors(rows):
    feats = np.stack([r[0] for r in rows])
    labels, vocab = encode_labels([r[1] for r in rows])
    return torch.from_numpy(feats), torch.from_numpy(labels), vocab


class Net(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(NUM_FEATURES, 128), nn.ReLU(),
            nn.Linear(128, 64), nn.ReLU(),
            nn.Linear(64, num_classes),
        )

    def forward(self, x):
        return self.net(x)


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    logits = model(x)
    loss = F.cross_entropy(logits, y).item()
    acc = (logits.argmax(dim=1) == y).float().mean().item()
    model.train()
    return loss, acc


def main():
    rng = random.Random(SEED)
    train_rows = load_split(6000, rng)
    val_rows = load_split(1500, rng)

    x_train, y_train, train_vocab = to_tensors(train_rows)
    x_val, y_val, val_vocab = to_tensors(val_rows)
    num_classes = len(train_vocab)
    print(f"train rows: {len(train_rows)}  val rows: {len(val_rows)}  classes: {num_classes}")
    print(f"class counts (train): {np.bincount(y_train.numpy()).tolist()}")
    print(f"class counts (val):   {np.bincount(y_val.numpy()).tolist()}")

    mean, std = x_train.mean(0), x_train.std(0)
    x_train = (x_train - mean) / std
    x_val = (x_val - mean) / std

    loader = DataLoader(TensorDataset(x_train, y_train), batch_size=BATCH_SIZE, shuffle=True)
    model = Net(num_classes)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-2)

    step = 0
    for epoch in range(1, EPOCHS + 1):
        t0 = time.time()
        run_loss, correct, seen = 0.0, 0, 0
        for x, y in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            run_loss += loss.item() * y.size(0)
            correct += (logits.argmax(1) == y).sum().item()
            seen += y.size(0)
            if step % 25 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        val_loss, val_acc = evaluate(model, x_val, y_val)
        print(f"epoch {epoch} | train_loss {run_loss / seen:.4f} train_acc {correct / seen:.4f} | "
              f"val_loss {val_loss:.4f} val_acc {val_acc:.4f} | {time.time() - t0:.1f}s")

    print("classes:", list(train_vocab))


if __name__ == "__main__":
    main()
