"""Rank 1 raises in its step; rank 0 is left in all_reduce with a closed peer."""

import datetime

import torch
import torch.distributed as dist

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=4))
rank = dist.get_rank()
grad = torch.ones(8)
for step in range(4):
    if rank == 1 and step == 2:
        raise ValueError(f"corrupt sample in batch {step}")
    dist.all_reduce(grad)
    print(f"step {step} done", flush=True)
dist.destroy_process_group()
