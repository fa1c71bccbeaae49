"""2-process DDP (gloo, CPU) training of a text-length-agnostic bag-of-features classifier."""
import datetime
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

WORLD_SIZE = 2
EPOCHS = 3


def log(rank, msg):
    print(f"[rank{rank} {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(64, 10, generator=torch.Generator().manual_seed(0))
    x = torch.randn(n, 64, generator=g)
    y = (x @ w + 0.5 * torch.randn(n, 10, generator=g)).argmax(1)
    return TensorDataset(x, y)


def reduce_sum(value):
    t = torch.tensor([value], dtype=torch.float64)
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return t.item()


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    for x, y in loader:
        logits = model(x)
        loss_sum += F.cross_entropy(logits, y, reduction="sum").item()
        correct += (logits.argmax(1) == y).sum().item()
        total += len(y)
    model.train()
    # aggregate across ranks so every shard of the val set counts
    total = reduce_sum(total)
    return reduce_sum(loss_sum) / total, reduce_sum(correct) / total


def worker(rank):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE,
                            timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)
    torch.set_num_threads(1)

    train_ds, val_ds = make_data(16000, 1), make_data(4000, 2)
    train_sampler = DistributedSampler(train_ds, num_replicas=WORLD_SIZE, rank=rank, shuffle=True)
    val_sampler = DistributedSampler(val_ds, num_replicas=WORLD_SIZE, rank=rank, shuffle=False)
    train_dl = DataLoader(train_ds, batch_size=64, sampler=train_sampler)
    val_dl = DataLoader(val_ds, batch_size=500, sampler=val_sampler)

    model = DDP(nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    best_acc = 0.0
    for epoch in range(EPOCHS):
        train_sampler.set_epoch(epoch)
        t0 = time.time()
        running = 0.0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        log(rank, f"epoch {epoch} train_loss {running / len(train_dl):.4f} ({time.time() - t0:.1f}s)")

        if rank == 0:
            val_loss, val_acc = evaluate(model, val_dl)
            log(rank, f"epoch {epoch} val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
            if val_acc > best_acc:
                best_acc = val_acc
                torch.save(model.module.state_dict(), "best.pt")
                log(rank, "saved best.pt")
        dist.barrier()

    log(rank, f"done, best val_acc {best_acc:.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, nprocs=WORLD_SIZE, join=True)
