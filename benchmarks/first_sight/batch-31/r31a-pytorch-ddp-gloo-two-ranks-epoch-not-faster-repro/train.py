"""Data-parallel training on CPU nodes (gloo): credit-default MLP.

Launch: torchrun --nproc_per_node 2 train.py
"""
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

EPOCHS, BATCH, LR = 3, 128, 1e-3


def make_dataset(n=40000, d=64, seed=0):
    w = torch.randn(d, generator=torch.Generator().manual_seed(1234))
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    y = ((x @ w + 0.5 * x[:, :8].pow(2).sum(1) - 4) > 0).long()
    return TensorDataset(x, y)


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    torch.manual_seed(0)

    train_ds = make_dataset()
    val_ds = make_dataset(n=5000, seed=1)
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=1000)

    model = DDP(nn.Sequential(nn.Linear(64, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                              nn.Linear(1024, 256), nn.ReLU(), nn.Linear(256, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    if rank == 0:
        print(f"world_size={world} threads/rank={torch.get_num_threads()} "
              f"train_samples={len(train_ds)} batch/rank={BATCH}", flush=True)

    for epoch in range(EPOCHS):
        model.train()
        t0, steps = time.time(), 0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            steps += 1
        dist.barrier()
        dt = time.time() - t0
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val_dl:
                correct += (model(x).argmax(1) == y).sum().item()
        if rank == 0:
            print(f"epoch {epoch}: {steps} steps/rank in {dt:.1f}s ({steps / dt:.1f} it/s, "
                  f"{len(train_ds) / dt:.0f} samples/s) loss {loss.item():.4f} "
                  f"val_acc {correct / len(val_ds):.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
