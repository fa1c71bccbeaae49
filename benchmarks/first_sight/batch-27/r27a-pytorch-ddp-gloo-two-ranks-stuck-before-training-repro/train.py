"""DDP training of the churn MLP on precomputed session features.

Launch: torchrun --nproc_per_node 2 train.py
"""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from filelock import FileLock
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

CACHE_DIR = os.environ.get("FEATURE_CACHE", "./feature_cache")
CACHE = os.path.join(CACHE_DIR, "session_features_v3.npz")
N_USERS, N_EVENTS, N_FEAT = 40_000, 60, 48
EPOCHS, BATCH, LR = 3, 256, 2e-3


def log(msg):
    print(f"[rank {dist.get_rank()}] {time.strftime('%H:%M:%S')} {msg}", flush=True)


def build_features():
    """Aggregate raw per-event logs into fixed-size session features (slow step)."""
    rng = np.random.default_rng(7)
    events = rng.gamma(2.0, 1.5, size=(N_USERS, N_EVENTS, N_FEAT)).astype(np.float32)
    feats = np.concatenate([events.mean(1), events.std(1)], axis=1)
    feats = (feats - feats.mean(0)) / feats.std(0)
    w = rng.normal(size=feats.shape[1])
    labels = (feats @ w + rng.normal(scale=2.0, size=N_USERS) > 0).astype(np.int64)
    return feats.astype(np.float32), labels


def load_features():
    os.makedirs(CACHE_DIR, exist_ok=True)
    with FileLock(CACHE + ".lock"):
        if not os.path.exists(CACHE):
            log("feature cache missing, building it")
            feats, labels = build_features()
            np.savez(CACHE + ".tmp.npz", feats=feats, labels=labels)
            os.replace(CACHE + ".tmp.npz", CACHE)
            log(f"wrote {CACHE}")
        dist.barrier()
        data = np.load(CACHE)
        feats, labels = data["feats"], data["labels"]
    log(f"loaded features {feats.shape}")
    return torch.from_numpy(feats), torch.from_numpy(labels)


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    log(f"started, world_size={world}")

    x, y = load_features()
    n_val = 4000
    train_ds = TensorDataset(x[n_val:], y[n_val:])
    val_x, val_y = x[:n_val], y[:n_val]
    sampler = DistributedSampler(train_ds, num_replicas=world, rank=rank, shuffle=True)
    loader = DataLoader(train_ds, batch_size=BATCH, sampler=sampler)

    model = DDP(nn.Sequential(nn.Linear(2 * N_FEAT, 256), nn.ReLU(),
                              nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 2)))
    opt = torch.optim.AdamW(model.parameters(), lr=LR)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(loader):
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 25 == 0:
                log(f"epoch {epoch} step {step}/{len(loader)} loss={loss.item():.4f}")
        model.eval()
        with torch.no_grad():
            acc = (model.module(val_x).argmax(1) == val_y).float().mean()
        log(f"epoch {epoch} done in {time.time() - t0:.1f}s val_acc={acc.item():.4f}")

    if rank == 0:
        torch.save(model.module.state_dict(), "churn_mlp.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
