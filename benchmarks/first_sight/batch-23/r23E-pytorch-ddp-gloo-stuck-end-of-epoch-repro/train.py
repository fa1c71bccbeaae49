"""2-process DDP (gloo, CPU) training of a small sequence classifier on sharded data.

Shards are written by the preprocessing job as shard-XXXXX.pt; each rank reads its own shards.
"""
import glob
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

HERE = os.path.dirname(os.path.abspath(__file__))
SHARD_DIR = os.path.join(HERE, "shards")
WORLD = 2
VOCAB, SEQ = 500, 32


def make_shards():
    os.makedirs(SHARD_DIR, exist_ok=True)
    g = torch.Generator().manual_seed(0)
    for k in range(5):
        x = torch.randint(1, VOCAB, (1024, SEQ), generator=g)
        y = ((x < 50).sum(1) > 3).long()
        torch.save({"x": x, "y": y}, os.path.join(SHARD_DIR, f"shard-{k:05d}.pt"))


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 64, mode="mean")
        self.head = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x):
        return self.head(self.emb(x))


def log(rank, msg):
    print(f"[rank{rank} {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def worker(rank):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29533"
    dist.init_process_group("gloo", rank=rank, world_size=WORLD, timeout=timedelta(seconds=60))
    torch.manual_seed(0)
    torch.set_num_threads(1)

    files = sorted(glob.glob(os.path.join(SHARD_DIR, "shard-*.pt")))[rank::WORLD]
    parts = [torch.load(f) for f in files]
    x = torch.cat([p["x"] for p in parts])
    y = torch.cat([p["y"] for p in parts])
    n_val = 256
    train_dl = DataLoader(TensorDataset(x[n_val:], y[n_val:]), batch_size=64, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[:n_val], y[:n_val]), batch_size=256)
    log(rank, f"shards={[os.path.basename(f) for f in files]} train_batches={len(train_dl)}")

    model = DDP(BagClassifier())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(3):
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(train_dl):
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            if step % 10 == 0:
                log(rank, f"epoch {epoch} step {step} loss {loss.item():.4f}")
        log(rank, f"epoch {epoch} train done in {time.time() - t0:.1f}s")

        if rank == 0:
            model.eval()
            correct = total = 0
            with torch.no_grad():
                for xb, yb in val_dl:
                    correct += (model.module(xb).argmax(1) == yb).sum().item()
                    total += len(yb)
            log(rank, f"epoch {epoch} val_acc {correct / total:.4f}")

    dist.barrier()
    if rank == 0:
        torch.save(model.module.state_dict(), os.path.join(HERE, "model.pt"))
        log(rank, "saved model.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    make_shards()
    mp.spawn(worker, nprocs=WORLD, join=True)
