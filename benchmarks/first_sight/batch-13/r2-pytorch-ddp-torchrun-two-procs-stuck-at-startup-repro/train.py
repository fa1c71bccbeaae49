"""Multi-process training of a wind-turbine power-curve regressor with DDP.

Launch:  torchrun --nproc_per_node 2 train.py --epochs 5
"""
import argparse
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--local_rank", type=int, default=0)
    p.add_argument("--backend", default="gloo")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args()


def make_data(n=50_000, seed=0):
    g = torch.Generator().manual_seed(seed)
    wind = torch.rand(n, 1, generator=g) * 25             # m/s
    direction = torch.rand(n, 1, generator=g) * 360
    temp = torch.randn(n, 1, generator=g) * 8 + 12
    power = torch.clamp((wind - 3) / 9, 0, 1) ** 3 * (wind < 24)  # normalised power curve
    power = power + 0.02 * torch.randn(n, 1, generator=g)
    x = torch.cat([wind / 25, torch.sin(direction.deg2rad()), torch.cos(direction.deg2rad()),
                   (temp - 12) / 8], dim=1)
    return TensorDataset(x, power)


def main():
    args = get_args()
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    print(f"[{socket.gethostname()} pid {os.getpid()}] rank {args.local_rank}/{world_size}: "
          f"initialising process group ({args.backend})", flush=True)
    dist.init_process_group(backend=args.backend, init_method="env://",
                            world_size=world_size, rank=args.local_rank)
    rank = dist.get_rank()
    torch.manual_seed(0)

    ds = make_data()
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler)
    model = DDP(nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                              nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        t0, total, n = time.time(), 0.0, 0
        for x, y in loader:
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(x)
            n += len(x)
        if rank == 0:
            print(f"epoch {epoch}: train mse {total / n:.5f} ({time.time() - t0:.1f}s)", flush=True)

    if rank == 0:
        torch.save(model.module.state_dict(), "power_curve.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
