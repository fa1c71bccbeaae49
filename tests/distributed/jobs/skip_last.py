"""Rank 1 leaves the loop one all_reduce early; rank 0 waits in the all_reduce rank 1 never issues.

Each rank writes its flight-recorder dump (TORCH_FR_BUFFER_SIZE must be set) to
FR_DUMP_DIR as `fr_trace_rank_<rank>`: rank 1 when it leaves, rank 0 when its wait fails.
"""

import datetime
import os

import torch
import torch.distributed as dist


def dump(rank):
    path = os.path.join(os.environ["FR_DUMP_DIR"], f"fr_trace_rank_{rank}")
    with open(path, "wb") as out:
        out.write(torch._C._distributed_c10d._dump_fr_trace())


dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=4))
rank = dist.get_rank()
grad = torch.ones(8)
steps = 2 if rank == 1 else 3
try:
    for step in range(steps):
        dist.all_reduce(grad)
        print(f"step {step} done", flush=True)
except RuntimeError:
    dump(rank)
    raise
dump(rank)
__import__("time").sleep(8)  # stay alive so rank 0's wait times out instead of losing its peer
