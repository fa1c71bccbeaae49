import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

DATA_DIR = "data"
N_ROWS, N_FEAT, N_CLASSES = 40000, 128, 12


def prepare_data():
    """Stand-in for the feature-extraction job: writes one feature matrix + labels as .npy."""
    os.makedirs(DATA_DIR, exist_ok=True)
    fpath, lpath = os.path.join(DATA_DIR, "features.npy"), os.path.join(DATA_DIR, "labels.npy")
    if not os.path.exists(fpath):
        g = np.random.default_rng(0)
        w = g.normal(size=(N_FEAT, N_CLASSES)).astype(np.float32)
        x = g.normal(size=(N_ROWS, N_FEAT)).astype(np.float32)
        y = (x @ w + g.normal(0, 2.0, size=(N_ROWS, N_CLASSES))).argmax(1)
        np.save(fpath, x)
        np.save(lpath, y)
    return fpath, lpath


class FeatureDataset(Dataset):
    def __init__(self, feat_path, label_path, indices):
        self.feat_path = feat_path
        self.labels = np.load(label_path)
        self.indices = np.asarray(indices)

    def __len__(self):
        return len(self.indices)

    def __getitem__(self, i):
        row = self.indices[i]
        feats = np.load(self.feat_path)
        x = torch.from_numpy(feats[row].copy())
        x = (x - x.mean()) / (x.std() + 1e-6)
        return x, int(self.labels[row])


def main():
    torch.manual_seed(0)
    fpath, lpath = prepare_data()
    perm = np.random.default_rng(1).permutation(N_ROWS)
    train_ds = FeatureDataset(fpath, lpath, perm[:32000])
    val_ds = FeatureDataset(fpath, lpath, perm[32000:])
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True, num_workers=2, persistent_workers=True)

    model = nn.Sequential(nn.Linear(N_FEAT, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, N_CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"torch {torch.__version__} | {len(train_ds)} train / {len(val_ds)} val rows | "
          f"{len(train_dl)} batches/epoch | workers={train_dl.num_workers}", flush=True)

    max_steps, log_every = 20, 5
    step, t_data, t_compute = 0, 0.0, 0.0
    t_last = time.time()
    it_end = time.time()
    for xb, yb in train_dl:
        t0 = time.time()
        t_data += t0 - it_end
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        it_end = time.time()
        t_compute += it_end - t0
        step += 1
        if step % log_every == 0:
            dt = time.time() - t_last
            print(f"step {step:4d} | loss {loss.item():.4f} | {log_every * 128 / dt:7.1f} samples/s | "
                  f"waiting on data {t_data:.1f}s, compute {t_compute:.2f}s (cumulative)", flush=True)
            t_last = time.time()
        if step >= max_steps:
            break
    est = len(train_dl) * (t_data + t_compute) / step
    print(f"profiling run: {step} steps, projected epoch time {est / 60:.1f} min")


if __name__ == "__main__":
    main()
