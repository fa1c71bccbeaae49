"""One process in a one-rank gloo group with the flight recorder on: collectives, then dumps.

Usage: python one_rank_dumps.py OUT_DIR STEP...; a step is `all_reduce`, `broadcast`,
`dump:NAME` (the pickle `_dump_fr_trace` returns) or `json:NAME` (`_dump_fr_trace_json`).
TORCH_FR_BUFFER_SIZE must be set. A fresh process per use: the recorder's buffer is
process-wide and outlives a destroyed group.
"""

import os
import sys

import torch
import torch.distributed as dist

out, steps = sys.argv[1], sys.argv[2:]
dist.init_process_group(
    "gloo", init_method=f"file://{os.path.join(out, 'store')}", rank=0, world_size=1
)
grad = torch.ones(4, 2)
for step in steps:
    kind, _, name = step.partition(":")
    if kind == "all_reduce":
        dist.all_reduce(grad)
    elif kind == "broadcast":
        dist.broadcast(grad, src=0)
    elif kind == "dump":
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(torch._C._distributed_c10d._dump_fr_trace())
    elif kind == "json":
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(torch._C._distributed_c10d._dump_fr_trace_json())
dist.destroy_process_group()
