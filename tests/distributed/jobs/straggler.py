"""Rank 3 is slow (a sleep longer than the group's timeout) before step 2's all_reduce."""

import datetime
import time

import torch
import torch.distributed as dist

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=4))
rank = dist.get_rank()
grad = torch.ones(8)
for step in range(3):
    if rank == 3 and step == 2:
        print("rank 3 loading the next shard", flush=True)
        time.sleep(12)
    dist.all_reduce(grad)
    print(f"step {step} done", flush=True)
dist.destroy_process_group()
