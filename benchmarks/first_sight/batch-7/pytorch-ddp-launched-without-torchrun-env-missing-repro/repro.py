# DDP training script
# (2 workers on a 2-CPU box).
import os
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

def main():
    print("starting DDP training", flush=True)
    dist.init_process_group(backend="gloo", init_method="env://")
    rank = dist.get_rank()
    model = DDP(nn.Linear(32, 2))
    ds = TensorDataset(torch.randn(256, 32), torch.randint(0, 2, (256,)))
    dl = DataLoader(ds, batch_size=16, sampler=DistributedSampler(ds))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(dl):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if rank == 0 and step % 4 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
