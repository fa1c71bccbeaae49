# Small DDP training script: train on all ranks, validate on rank 0,
# then barrier before the next epoch.
import os
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Linear(32, 32), nn.BatchNorm1d(32), nn.ReLU(),
        )
        self.head = nn.Linear(32, 2)

    def forward(self, x):
        return self.head(self.body(x))


def evaluate(model, data, target):
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(data), 32):
            out = model(data[i:i + 32])
            correct += (out.argmax(1) == target[i:i + 32]).sum().item()
    model.train()
    return correct / len(data)


def run(rank, world_size):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29533"
    dist.init_process_group("gloo", rank=rank, world_size=world_size,
                            timeout=timedelta(seconds=10))
    torch.manual_seed(0)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    x = torch.randn(256, 16, generator=g)
    y = (x[:, 0] > 0).long()
    vx = torch.randn(128, 16)
    vy = (vx[:, 0] > 0).long()

    for epoch in range(3):
        for i in range(0, 256, 32):
            loss = nn.functional.cross_entropy(model(x[i:i + 32]), y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"[rank{rank}] epoch {epoch} train loss {loss.item():.4f}", flush=True)

        if rank == 0:
            acc = evaluate(model, vx, vy)
            print(f"[rank0] epoch {epoch} val acc {acc:.3f}", flush=True)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(run, args=(2,), nprocs=2)
