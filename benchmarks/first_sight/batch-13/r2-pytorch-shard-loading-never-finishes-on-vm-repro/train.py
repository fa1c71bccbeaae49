"""Energy-consumption forecaster: loads the sharded feature store, then trains a small MLP.

The feature store is a directory of shards; each shard is split into parts (one per meter
group) so that the parts can be read and decoded in parallel.
"""
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

STORE = "feature_store"
N_SHARDS, PARTS_PER_SHARD, ROWS_PER_PART, N_FEATS = 6, 4, 5000, 32

# I/O pool for the data layer
IO_POOL = ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1), thread_name_prefix="io")


def prepare_store():
    """Stands in for the nightly export job."""
    rng = np.random.default_rng(0)
    w = rng.normal(size=N_FEATS).astype(np.float32)
    os.makedirs(STORE, exist_ok=True)
    for s in range(N_SHARDS):
        for k in range(PARTS_PER_SHARD):
            x = rng.normal(size=(ROWS_PER_PART, N_FEATS)).astype(np.float32)
            y = x @ w + 0.1 * rng.normal(size=ROWS_PER_PART).astype(np.float32)
            np.save(f"{STORE}/shard{s:02d}-part{k}.npy", np.column_stack([x, y]))


def read_part(shard, k):
    arr = np.load(f"{STORE}/shard{shard:02d}-part{k}.npy")
    time.sleep(0.05)  # object-store latency
    return arr


def load_shard(shard):
    futures = [IO_POOL.submit(read_part, shard, k) for k in range(PARTS_PER_SHARD)]
    return np.concatenate([f.result() for f in futures])


def load_store():
    futures = [IO_POOL.submit(load_shard, s) for s in range(N_SHARDS)]
    shards = [f.result() for f in futures]
    data = np.concatenate(shards)
    return torch.from_numpy(data[:, :-1]), torch.from_numpy(data[:, -1:])


def main():
    if not os.path.isdir(STORE):
        prepare_store()
    print(f"torch {torch.__version__}; loading {N_SHARDS} shards x {PARTS_PER_SHARD} parts "
          f"with {IO_POOL._max_workers} I/O threads ...", flush=True)
    t0 = time.time()
    x, y = load_store()
    print(f"loaded {len(x):,} rows in {time.time() - t0:.1f}s", flush=True)

    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(x, y), batch_size=256, shuffle=True)
    model = nn.Sequential(nn.Linear(N_FEATS, 128), nn.ReLU(), nn.Linear(128, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        total = 0.0
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        print(f"epoch {epoch}: mse {total / len(x):.4f}", flush=True)
    torch.save(model.state_dict(), "forecaster.pt")


if __name__ == "__main__":
    main()
