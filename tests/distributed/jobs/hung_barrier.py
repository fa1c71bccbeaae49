"""Rank 1 never reaches the final barrier; rank 0 times out in it."""

import datetime
import time

import torch.distributed as dist

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=4))
rank = dist.get_rank()
print("training done", flush=True)
if rank == 1:
    time.sleep(12)
dist.barrier()
dist.destroy_process_group()
