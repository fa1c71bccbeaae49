import os
import time
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--data_dir", default="data")
parser.add_argument("--batch_size", type=int, default=128)
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--max_steps", type=int, default=40)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--num_workers", type=int, default=2)
args = parser.parse_args()


def prepare_features(data_dir, n=20000, dim=512, n_classes=10, seed=0):
    """Dump precomputed embeddings + labels once (normally produced by the feature-extraction job)."""
    os.makedirs(data_dir, exist_ok=True)
    feat_path = os.path.join(data_dir, "features.npy")
    label_path = os.path.join(data_dir, "labels.npy")
    if not os.path.exists(feat_path):
        rng = np.random.default_rng(seed)
        centers = rng.normal(size=(n_classes, dim)).astype(np.float32)
        y = rng.integers(0, n_classes, size=n)
        x = centers[y] + 8.0 * rng.normal(size=(n, dim)).astype(np.float32)
        np.save(feat_path, x.astype(np.float32))
        np.save(label_path, y.astype(np.int64))
    return feat_path, label_path


class EmbeddingDataset(Dataset):
    def __init__(self, feat_path, label_path, indices):
        self.feat_path = feat_path
        self.label_path = label_path
        self.indices = indices

    def __len__(self):
        return len(self.indices)

    def __getitem__(self, i):
        idx = self.indices[i]
        features = np.load(self.feat_path)
        labels = np.load(self.label_path)
        x = torch.from_numpy(features[idx].copy())
        y = int(labels[idx])
        return x, y


class Classifier(nn.Module):
    def __init__(self, dim=512, hidden=1024, n_classes=10):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(0.1),
            nn.Linear(hidden, hidden), nn.GELU(), nn.Dropout(0.1),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        return self.net(x)


def main():
    torch.manual_seed(0)
    feat_path, label_path = prepare_features(args.data_dir)
    n = len(np.load(label_path))
    perm = np.random.default_rng(1).permutation(n)
    train_idx, val_idx = perm[: int(0.9 * n)], perm[int(0.9 * n):]

    train_ds = EmbeddingDataset(feat_path, label_path, train_idx)
    train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True,
                              num_workers=args.num_workers, drop_last=True)

    model = Classifier()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    print(f"torch {torch.__version__} | threads {torch.get_num_threads()} | train {len(train_ds)} samples "
          f"| batch {args.batch_size} | workers {args.num_workers}")

    step = 0
    t0 = time.time()
    t_data = 0.0
    t_compute = 0.0
    model.train()
    for epoch in range(args.epochs):
        t_fetch = time.time()
        for x, y in train_loader:
            t_got = time.time()
            t_data += t_got - t_fetch
            logits = model(x)
            loss = loss_fn(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            t_fetch = time.time()
            t_compute += t_fetch - t_got
            if step % 10 == 0:
                elapsed = time.time() - t0
                print(f"epoch {epoch} step {step:4d} | loss {loss.item():.4f} | "
                      f"{step * args.batch_size / elapsed:7.1f} samples/s | "
                      f"data wait {t_data / step * 1000:7.1f} ms/step | compute {t_compute / step * 1000:6.1f} ms/step",
                      flush=True)
            if step >= args.max_steps:
                break
    print(f"done: {step} steps in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
