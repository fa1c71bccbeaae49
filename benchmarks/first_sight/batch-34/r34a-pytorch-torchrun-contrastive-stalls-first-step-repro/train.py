"""Two-view contrastive pre-training of a sensor-window encoder on 2 CPU processes.

Launch: torchrun --nproc_per_node 2 train.py
Each rank also receives the key embeddings of its neighbour rank so that the InfoNCE loss
sees twice as many negatives without an all-gather of the whole world.
"""
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

BATCH = 128
DIM = 64
TEMP = 0.1
STEPS_PER_LOG = 10


def make_windows(n, g):
    t = torch.linspace(0, 1, 96)
    freq = torch.randint(1, 12, (n, 1), generator=g).float()
    phase = torch.rand(n, 1, generator=g) * 6.28
    x = torch.sin(6.28 * freq * t + phase) + 0.3 * torch.randn(n, 96, generator=g)
    return x.unsqueeze(1)


def augment(x):
    scale = 1 + 0.2 * torch.randn(x.size(0), 1, 1)
    shift = torch.randint(-8, 9, (1,)).item()
    return torch.roll(x * scale, shift, dims=-1) + 0.1 * torch.randn_like(x)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 32, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
                                  nn.Conv1d(32, 64, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.proj = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, DIM))

    def forward(self, x):
        return F.normalize(self.proj(self.conv(x).flatten(1)), dim=-1)


def neighbour_keys(k):
    """Send our keys to the next rank and receive the previous rank's keys."""
    rank, world = dist.get_rank(), dist.get_world_size()
    buf = torch.empty_like(k)
    dist.send(k.contiguous(), dst=(rank + 1) % world)
    dist.recv(buf, src=(rank - 1) % world)
    return buf


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    ds = TensorDataset(make_windows(20000, torch.Generator().manual_seed(1)))
    sampler = DistributedSampler(ds, shuffle=True, drop_last=True)
    dl = DataLoader(ds, batch_size=BATCH, sampler=sampler, drop_last=True)
    model = DDP(Encoder())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    if rank == 0:
        print(f"world={world} samples/rank={len(sampler)} steps/epoch={len(dl)}", flush=True)

    for epoch in range(2):
        sampler.set_epoch(epoch)
        t0 = time.time()
        for step, (x,) in enumerate(dl):
            q = model(augment(x))
            with torch.no_grad():
                k = model(augment(x))
            k_other = neighbour_keys(k)
            logits = q @ torch.cat([k, k_other]).T / TEMP
            labels = torch.arange(q.size(0))
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if rank == 0 and step % STEPS_PER_LOG == 0:
                print(f"epoch {epoch} step {step}/{len(dl)} loss {loss.item():.4f} "
                      f"({(step + 1) / (time.time() - t0):.1f} it/s)", flush=True)
        if rank == 0:
            print(f"epoch {epoch} done in {time.time() - t0:.1f}s", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
