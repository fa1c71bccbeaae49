"""Rank 2 skips the all_reduce of step 1; from then on the ranks' collectives do not pair up.

With FR_DUMP_DIR set (and TORCH_FR_BUFFER_SIZE), each rank writes its flight-recorder
dump there when its collective fails, named `<prefix><rank>` as PyTorch's own dumps are.
"""

import datetime
import os

import torch
import torch.distributed as dist

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=4))
rank = dist.get_rank()
grad = torch.ones(8)
try:
    for step in range(3):
        if not (rank == 2 and step == 1):
            dist.all_reduce(grad)
        print(f"step {step} done", flush=True)
    dist.barrier()
except RuntimeError:
    if os.environ.get("FR_DUMP_DIR"):
        dump = torch._C._distributed_c10d._dump_fr_trace()
        with open(os.path.join(os.environ["FR_DUMP_DIR"], f"fr_trace_rank_{rank}"), "wb") as out:
            out.write(dump)
    raise
dist.destroy_process_group()
