import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

WORLD_SIZE = 2
BATCH = 32


def make_shards(num_shards=5):
    """Pretend each shard is a parquet file written by the ETL job."""
    g = torch.Generator().manual_seed(0)
    shards = []
    for s in range(num_shards):
        n = 1000 + 137 * s
        x = torch.randn(n, 32, generator=g)
        y = (x[:, :4].sum(1) > 0).long()
        shards.append((x, y))
    return shards


def log(rank, msg):
    print(f"[rank {rank}] {time.strftime('%H:%M:%S')} {msg}", flush=True)


def worker(rank):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29533"
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE, timeout=timedelta(seconds=30))
    torch.manual_seed(0)

    shards = make_shards()
    mine = shards[rank::WORLD_SIZE]
    x = torch.cat([s[0] for s in mine])
    y = torch.cat([s[1] for s in mine])
    loader = DataLoader(TensorDataset(x, y), batch_size=BATCH, shuffle=True)
    log(rank, f"{len(mine)} shards, {len(x)} samples, {len(loader)} batches/epoch")

    model = DDP(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(3):
        model.train()
        total, correct, seen = 0.0, 0, 0
        for i, (xb, yb) in enumerate(loader):
            out = model(xb)
            loss = nn.functional.cross_entropy(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
            correct += (out.argmax(1) == yb).sum().item()
            seen += len(yb)
            if i % 40 == 0:
                log(rank, f"epoch {epoch} batch {i}/{len(loader)} loss {loss.item():.4f}")
        dist.barrier()
        stats = torch.tensor([total, correct, seen], dtype=torch.float64)
        dist.all_reduce(stats)
        log(rank, f"epoch {epoch} loss {stats[0] / stats[2]:.4f} acc {stats[1] / stats[2]:.4f}")

    if rank == 0:
        torch.save(model.module.state_dict(), "/tmp/ddp_model.pt")
        log(rank, "saved")
    dist.destroy_process_group()


if __name__ == "__main__":
    t0 = time.time()
    try:
        mp.spawn(worker, nprocs=WORLD_SIZE, join=True)
    finally:
        print(f"total wall time {time.time() - t0:.1f}s")
