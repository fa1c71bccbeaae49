"""Data-parallel training of the fault classifier; launched with torchrun (CPU staging box)."""
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

TRAIN_CFG = {
    "dist_backend": "nccl",
    "batch_size": 128,
    "lr": 1e-3,
    "epochs": 3,
    "seed": 17,
}


def make_data(n=16_000):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(n, 32, generator=g)
    y = ((X[:, 0] * X[:, 1] > 0).long() + (X[:, 2] > 1).long())
    return TensorDataset(X, y)


def main():
    dist.init_process_group(backend=TRAIN_CFG["dist_backend"])
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(TRAIN_CFG["seed"])
    ds = make_data()
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True)
    dl = DataLoader(ds, batch_size=TRAIN_CFG["batch_size"], sampler=sampler)
    model = DDP(nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 3)))
    opt = torch.optim.Adam(model.parameters(), lr=TRAIN_CFG["lr"])
    if rank == 0:
        print(f"world_size={world} backend={dist.get_backend()} steps/epoch={len(dl)}", flush=True)
    for epoch in range(TRAIN_CFG["epochs"]):
        sampler.set_epoch(epoch); t0 = time.time(); correct = total = 0
        for x, y in dl:
            logits = model(x)
            loss = nn.functional.cross_entropy(logits, y)
            opt.zero_grad(); loss.backward(); opt.step()
            correct += (logits.argmax(1) == y).sum().item(); total += len(y)
        stats = torch.tensor([correct, total], dtype=torch.float64)
        dist.all_reduce(stats)
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f} train_acc {stats[0] / stats[1]:.3f} "
                  f"({time.time() - t0:.1f}s)", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
