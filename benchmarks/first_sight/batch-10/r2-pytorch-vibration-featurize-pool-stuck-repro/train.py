"""Vibration fault classifier.

1. fit a PCA projection on a calibration set of raw sensor clips
2. featurize all training shards in parallel (multiprocessing.Pool)
3. train a small MLP on the projected features
"""
import multiprocessing as mp
import os
import time

import numpy as np
import torch
import torch.nn as nn

N_SHARDS = 8
CLIPS_PER_SHARD = 512
SIG_LEN = 2048
N_COMPONENTS = 128
N_CLASSES = 4
N_WORKERS = int(os.environ.get("N_WORKERS", 2))

PROJ = None   # (SIG_LEN, N_COMPONENTS), filled in by fit_projection()
MEAN = None


def load_shard(shard_id):
    """Stand-in for reading one .npy shard of raw accelerometer clips."""
    rng = np.random.default_rng(1000 + shard_id)
    labels = rng.integers(0, N_CLASSES, CLIPS_PER_SHARD)
    t = np.arange(SIG_LEN) / SIG_LEN
    freqs = np.array([13.0, 29.0, 57.0, 101.0])[labels]
    clips = np.sin(2 * np.pi * freqs[:, None] * t[None, :] * 8)
    clips += 0.8 * rng.standard_normal((CLIPS_PER_SHARD, SIG_LEN))
    return clips.astype(np.float32), labels


def fit_projection():
    global PROJ, MEAN
    calib = torch.from_numpy(np.concatenate([load_shard(100 + i)[0] for i in range(4)]))
    MEAN = calib.mean(0, keepdim=True)
    xc = calib - MEAN
    cov = xc.T @ xc / (xc.shape[0] - 1)
    evals, evecs = torch.linalg.eigh(cov)
    PROJ = evecs[:, -N_COMPONENTS:].contiguous()
    explained = evals[-N_COMPONENTS:].sum() / evals.sum()
    print(f"PCA fitted on {calib.shape[0]} clips, {N_COMPONENTS} components "
          f"explain {explained:.1%} of variance", flush=True)


def featurize_shard(shard_id):
    t0 = time.time()
    clips, labels = load_shard(shard_id)
    x = torch.from_numpy(clips)
    feats = (x - MEAN) @ PROJ
    feats = feats / feats.norm(dim=1, keepdim=True)
    print(f"  [pid {os.getpid()}] shard {shard_id}: {tuple(feats.shape)} "
          f"in {time.time() - t0:.2f}s", flush=True)
    return feats.numpy(), labels


def main():
    torch.manual_seed(0)
    t0 = time.time()
    fit_projection()

    print(f"featurizing {N_SHARDS} shards with {N_WORKERS} worker processes ...", flush=True)
    with mp.Pool(N_WORKERS) as pool:
        results = pool.map(featurize_shard, range(N_SHARDS))
    X = torch.from_numpy(np.concatenate([r[0] for r in results]))
    y = torch.from_numpy(np.concatenate([r[1] for r in results])).long()
    print(f"features ready: {tuple(X.shape)} after {time.time() - t0:.1f}s", flush=True)

    model = nn.Sequential(nn.Linear(N_COMPONENTS, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(5):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 128):
            idx = perm[i:i + 128]
            loss = loss_fn(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            acc = (model(X).argmax(1) == y).float().mean().item()
        print(f"epoch {epoch}: loss {loss.item():.4f} train acc {acc:.3f}", flush=True)


if __name__ == "__main__":
    main()
