# DDP training where each rank reads its own shard files
# (round-robin split of the file list).
import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


def make_shards(root):
    # 4 shard files, as produced by an upstream preprocessing job
    sizes = [512, 480, 512, 448]
    g = torch.Generator().manual_seed(0)
    for i, n in enumerate(sizes):
        x = torch.randn(n, 20, generator=g)
        y = (x.sum(1) > 0).long()
        torch.save((x, y), os.path.join(root, f"shard-{i:05d}.pt"))


def load_rank_shards(root, rank, world_size):
    files = sorted(f for f in os.listdir(root) if f.startswith("shard-"))
    mine = files[rank::world_size]
    xs, ys = zip(*(torch.load(os.path.join(root, f)) for f in mine))
    return TensorDataset(torch.cat(xs), torch.cat(ys))


def run(rank, world_size, root):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29541"
    dist.init_process_group("gloo", rank=rank, world_size=world_size,
                            timeout=timedelta(seconds=10))
    torch.manual_seed(0)
    ds = load_rank_shards(root, rank, world_size)
    loader = DataLoader(ds, batch_size=64, shuffle=True)
    print(f"[rank{rank}] {len(ds)} samples, {len(loader)} steps/epoch", flush=True)

    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for step, (xb, yb) in enumerate(loader):
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"[rank{rank}] epoch {epoch} done, last step {step}, loss {loss.item():.4f}", flush=True)
        dist.barrier()
        if rank == 0:
            torch.save(model.module.state_dict(), os.path.join(root, "ckpt.pt"))
    dist.destroy_process_group()


if __name__ == "__main__":
    root = tempfile.mkdtemp()
    make_shards(root)
    mp.spawn(run, args=(2, root), nprocs=2)
