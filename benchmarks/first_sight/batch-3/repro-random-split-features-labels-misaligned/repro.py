import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, random_split

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

NUM_CLASSES = 6
NUM_FEATURES = 32
N_SAMPLES = 12000
BATCH_SIZE = 128
EPOCHS = 8
LR = 1e-3


def make_dataset(n):
    centers = np.random.randn(NUM_CLASSES, NUM_FEATURES) * 0.35
    labels = np.random.randint(0, NUM_CLASSES, size=n)
    feats = centers[labels] + np.random.randn(n, NUM_FEATURES)
    return feats.astype(np.float32), labels.astype(np.int64)


class ArrayDataset(Dataset):
    def __init__(self, array):
        self.array = torch.from_numpy(array)

    def __len__(self):
        return len(self.array)

    def __getitem__(self, idx):
        return self.array[idx]


class PairedDataset(Dataset):
    def __init__(self, features, labels):
        assert len(features) == len(labels)
        self.features = features
        self.labels = labels

    def __len__(self):
        return len(self.features)

    def __getitem__(self, idx):
        return self.features[idx], self.labels[idx]


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(NUM_FEATURES, 128), nn.ReLU(),
            nn.Linear(128, 128), nn.ReLU(),
            nn.Linear(128, NUM_CLASSES),
        )

    def forward(self, x):
        return self.net(x)


def evaluate(model, loader):
    model.eval()
    total, correct, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            loss_sum += F.cross_entropy(logits, y, reduction="sum").item()
            correct += (logits.argmax(dim=1) == y).sum().item()
            total += y.numel()
    model.train()
    return loss_sum / total, correct / total


def main():
    feats, labels = make_dataset(N_SAMPLES)
    features_ds = ArrayDataset(feats)
    labels_ds = ArrayDataset(labels)

    n_val = int(0.1 * N_SAMPLES)
    n_train = N_SAMPLES - n_val
    train_x, val_x = random_split(features_ds, [n_train, n_val])
    train_y, val_y = random_split(labels_ds, [n_train, n_val])

    train_ds = PairedDataset(train_x, train_y)
    val_ds = PairedDataset(val_x, val_y)
    print(f"train samples: {len(train_ds)}  val samples: {len(val_ds)}  classes: {NUM_CLASSES}")

    train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=256)

    model = MLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model params: {n_params}  optimizer: Adam(lr={LR})")

    step = 0
    for epoch in range(EPOCHS):
        t0 = time.time()
        running, seen, correct = 0.0, 0, 0
        for x, y in train_loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item() * y.numel()
            correct += (logits.argmax(dim=1) == y).sum().item()
            seen += y.numel()
            step += 1
            if step % 20 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        val_loss, val_acc = evaluate(model, val_loader)
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s | train_loss {running / seen:.4f} "
              f"train_acc {correct / seen:.4f} | val_loss {val_loss:.4f} val_acc {val_acc:.4f}")


if __name__ == "__main__":
    main()
