import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--gpus", default="0,1")
    p.add_argument("--nodes", type=int, default=1)
    p.add_argument("--gpus-per-node", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args()


def worker(local_rank, args):
    world_size = args.nodes * args.gpus_per_node
    print(f"[rank {local_rank}] initializing process group (backend=gloo)", flush=True)
    dist.init_process_group("gloo", rank=local_rank, world_size=world_size)
    print(f"[rank {local_rank}] process group ready", flush=True)

    torch.manual_seed(0)
    x = torch.randn(4096, 32)
    y = (x[:, 0] > 0).long()
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler)

    model = DDP(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for step, (xb, yb) in enumerate(loader):
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if local_rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()


def main():
    args = get_args()
    print(args, flush=True)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    nprocs = len(args.gpus.split(","))
    mp.spawn(worker, args=(args,), nprocs=nprocs, join=True)


if __name__ == "__main__":
    main()
