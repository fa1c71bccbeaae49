"""Reproduces a DDP uneven-inputs failure on the CPU (gloo, 2 processes).

Rank 1 gets 3 more batches than rank 0 (a shard split without drop_last). The
training loop runs inside Join(..., throw_on_early_termination=True), so instead
of hanging in the next gradient all-reduce until the timeout, every rank raises
once rank 0 runs out of data. Run: python repro.py > train.log 2>&1
"""

import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel

BATCHES_PER_RANK = {0: 5, 1: 8}


def worker(rank: int, world_size: int) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29531"
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = DistributedDataParallel(torch.nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [torch.randn(4, 16) for _ in range(BATCHES_PER_RANK[rank])]
    print(f"[rank{rank}] batches on this rank: {len(batches)}", flush=True)
    try:
        with Join([model], throw_on_early_termination=True):
            for step, batch in enumerate(batches):
                loss = model(batch).pow(2).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, args=(2,), nprocs=2)
