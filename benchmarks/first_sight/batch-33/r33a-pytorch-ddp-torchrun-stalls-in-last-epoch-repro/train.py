"""Turbine vibration regressor: DDP on CPU (gloo).

Launch: torchrun --nproc_per_node 2 train.py
"""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

EPOCHS = 4
BATCH = 64
LR = 3e-3
N_FEAT = 24


W_TRUE = np.random.default_rng(0).normal(size=N_FEAT).astype(np.float32)


def make_data(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, N_FEAT)).astype(np.float32)
    w = W_TRUE
    y = (X @ w + 0.3 * np.sin(3 * X[:, 0]) + 0.1 * rng.normal(size=n)).astype(np.float32)
    # the logger export drops a reading now and then
    bad = rng.choice(n, size=3, replace=False)
    X[bad, rng.integers(0, N_FEAT, size=3)] = np.nan
    return torch.from_numpy(X), torch.from_numpy(y)


def log(msg):
    if dist.get_rank() == 0 or "rank" in msg:
        print(msg, flush=True)


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)

    X, y = make_data(20000, seed=1)
    Xv, yv = make_data(4000, seed=2)
    train_ds, val_ds = TensorDataset(X, y), TensorDataset(Xv, yv)
    sampler = DistributedSampler(train_ds, shuffle=True, seed=0)
    train_dl = DataLoader(train_ds, batch_size=BATCH, sampler=sampler)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = nn.Sequential(nn.Linear(N_FEAT, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 1))
    model = DDP(model)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-4)
    loss_fn = nn.MSELoss()
    log(f"world_size={world} train_batches/rank={len(train_dl)} val_batches={len(val_dl)}")

    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        model.train()
        t0, run, seen, skipped = time.time(), 0.0, 0, 0
        for step, (xb, yb) in enumerate(train_dl):
            pred = model(xb).squeeze(-1)
            loss = loss_fn(pred, yb)
            if not torch.isfinite(loss):
                skipped += 1
                print(f"[rank {rank}] epoch {epoch} step {step}: non-finite loss, skipping batch", flush=True)
                continue
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            run += loss.item() * len(yb)
            seen += len(yb)
            if step % 100 == 0:
                log(f"epoch {epoch} step {step:4d} loss {loss.item():.4f}")

        model.eval()
        sse = torch.zeros(2)
        with torch.no_grad():
            for xb, yb in val_dl:
                pred = model(xb).squeeze(-1)
                ok = torch.isfinite(pred)
                sse[0] += ((pred[ok] - yb[ok]) ** 2).sum()
                sse[1] += ok.sum()
        log(f"epoch {epoch} train_mse {run / max(seen, 1):.4f} val_mse {(sse[0] / sse[1]).item():.4f} "
            f"skipped {skipped} ({time.time() - t0:.1f}s)")

    if rank == 0:
        torch.save(model.module.state_dict(), "vib_regressor.pt")
    dist.barrier()
    log("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
