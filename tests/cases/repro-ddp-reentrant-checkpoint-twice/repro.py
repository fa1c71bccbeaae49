"""Broken on purpose: one block is wrapped by two reentrant checkpoint calls inside a
DistributedDataParallel model (gloo, one CPU process)."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29533")
dist.init_process_group("gloo", rank=0, world_size=1)
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Linear(16, 16)
        self.head = nn.Linear(16, 1)
    def forward(self, x):
        x = checkpoint(self.block, x, use_reentrant=True)
        x = checkpoint(self.block, x, use_reentrant=True)   # same weights, second reentrant pass
        return self.head(x)

model = nn.parallel.DistributedDataParallel(Net(), find_unused_parameters=True)
x = torch.randn(8, 16, requires_grad=True)
loss = model(x).pow(2).mean()
print(f"rank 0 loss {loss.item():.4f}", flush=True)
loss.backward()
dist.destroy_process_group()
