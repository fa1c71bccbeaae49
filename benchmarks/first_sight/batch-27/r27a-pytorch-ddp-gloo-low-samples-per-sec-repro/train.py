"""fastText-style hashed n-gram classifier for support-ticket routing, DDP on CPU.

Launch: torchrun --nproc_per_node 2 train.py
Effective batch per update = MICRO_BATCH * ACCUM_STEPS * world_size = 64 * 8 * 2 = 1024
"""
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

N_BUCKETS, DIM, N_CLASSES = 2**18, 96, 12
MICRO_BATCH, ACCUM_STEPS, LR = 64, 8, 20.0
MAX_UPDATES, LOG_EVERY = 32, 4


class HashedTickets(Dataset):
    def __init__(self, n, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, N_CLASSES, (n,), generator=g)
        self.lengths = torch.randint(20, 120, (n,), generator=g)
        self.keywords = torch.randint(0, N_BUCKETS, (N_CLASSES, 30), generator=g)
        self.seed = seed

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(self.seed * 1_000_003 + i)
        L = int(self.lengths[i])
        ids = torch.randint(0, N_BUCKETS, (L,), generator=g)
        k = torch.randint(0, 30, (L // 6,), generator=g)
        ids[: L // 6] = self.keywords[self.labels[i], k]
        return ids, self.labels[i]


def collate(batch):
    ids = [b[0] for b in batch]
    offsets = torch.tensor([0] + [len(x) for x in ids[:-1]]).cumsum(0)
    return torch.cat(ids), offsets, torch.stack([b[1] for b in batch])


class FastText(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(N_BUCKETS, DIM, mode="mean")
        self.fc = nn.Linear(DIM, N_CLASSES)

    def forward(self, ids, offsets):
        return self.fc(self.emb(ids, offsets))


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    ds = HashedTickets(200_000)
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=0)
    loader = DataLoader(ds, batch_size=MICRO_BATCH, sampler=sampler, collate_fn=collate)
    model = DDP(FastText())
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    n_params = sum(p.numel() for p in model.parameters())
    if rank == 0:
        print(f"world={world} params={n_params/1e6:.1f}M micro_batch={MICRO_BATCH} "
              f"accum={ACCUM_STEPS} global_batch={MICRO_BATCH*ACCUM_STEPS*world}", flush=True)

    model.train()
    updates, seen, t0 = 0, 0, time.time()
    t_start = t0
    for micro_step, (ids, offsets, y) in enumerate(loader):
        loss = F.cross_entropy(model(ids, offsets), y) / ACCUM_STEPS
        loss.backward()
        seen += len(y) * world
        if (micro_step + 1) % ACCUM_STEPS == 0:
            opt.step()
            opt.zero_grad(set_to_none=True)
            updates += 1
            if updates % LOG_EVERY == 0 and rank == 0:
                dt = time.time() - t0
                print(f"update {updates:3d}  loss={loss.item() * ACCUM_STEPS:.4f}  "
                      f"{seen / dt:7.1f} samples/s  {dt / LOG_EVERY:.2f} s/update", flush=True)
                seen, t0 = 0, time.time()
            if updates == MAX_UPDATES:
                break
    if rank == 0:
        print(f"done: {updates} updates in {time.time() - t_start:.1f}s", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
