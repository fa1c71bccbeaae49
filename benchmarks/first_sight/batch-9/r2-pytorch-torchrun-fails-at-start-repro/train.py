"""Multi-process (DDP) training of the tabular churn model.

single process:  python train.py
multi process:   torchrun --nproc_per_node=2 train.py
"""
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

CFG = dict(
    batch_size=128,
    epochs=4,
    lr=2e-3,
    num_workers=2,
    shuffle=True,
    pin_memory=False,
)


def setup():
    if "RANK" in os.environ:
        dist.init_process_group(backend="gloo")
        return dist.get_rank(), dist.get_world_size(), True
    return 0, 1, False


def build_data(n=50000, d=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    y = ((x @ w) + 0.3 * torch.randn(n, generator=g) > 0).float()
    return TensorDataset(x, y)


def main():
    rank, world, distributed = setup()
    torch.manual_seed(0)
    ds = build_data()
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank) if distributed else None
    loader = DataLoader(
        ds,
        batch_size=CFG["batch_size"],
        shuffle=CFG["shuffle"],
        sampler=sampler,
        num_workers=CFG["num_workers"],
        pin_memory=CFG["pin_memory"],
        drop_last=True,
    )
    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    if distributed:
        model = DDP(model)
    opt = torch.optim.Adam(model.parameters(), lr=CFG["lr"])
    crit = nn.BCEWithLogitsLoss()
    if rank == 0:
        print(f"world_size={world} steps/epoch={len(loader)}", flush=True)

    for epoch in range(CFG["epochs"]):
        if sampler is not None:
            sampler.set_epoch(epoch)
        t0 = time.time()
        tot = 0.0
        for xb, yb in loader:
            loss = crit(model(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        if rank == 0:
            print(f"epoch {epoch} loss {tot / len(loader):.4f} ({time.time() - t0:.1f}s)", flush=True)

    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
