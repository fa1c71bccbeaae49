"""CPU DDP (gloo) training of a small text-classifier head with early stopping."""
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

WORLD_SIZE = 2
PATIENCE = 2
MAX_EPOCHS = 30


def log(rank, msg):
    print(f"[rank{rank} {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    w = torch.randn(32, 4, generator=torch.Generator().manual_seed(99))
    y = (x @ w + 1.5 * torch.randn(n, 4, generator=g)).argmax(1)
    return TensorDataset(x, y)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    loss_sum, n = 0.0, 0
    for x, y in loader:
        loss_sum += nn.functional.cross_entropy(model(x), y, reduction="sum").item()
        n += len(y)
    model.train()
    return loss_sum / n


def worker(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=60))
    torch.manual_seed(0)
    torch.set_num_threads(1)

    train_ds, val_ds = make_data(8000, 1), make_data(2000, 2)
    sampler = DistributedSampler(train_ds, num_replicas=world_size, rank=rank, shuffle=True)
    train_dl = DataLoader(train_ds, batch_size=64, sampler=sampler)
    val_dl = DataLoader(val_ds, batch_size=500)

    model = DDP(nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    best, bad_epochs = float("inf"), 0
    for epoch in range(MAX_EPOCHS):
        sampler.set_epoch(epoch)
        t0 = time.time()
        for x, y in train_dl:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log(rank, f"epoch {epoch} train done ({time.time() - t0:.2f}s), last loss {loss.item():.4f}")

        if rank == 0:
            val = evaluate(model.module, val_dl)
            if val < best - 1e-3:
                best, bad_epochs = val, 0
                torch.save(model.module.state_dict(), "ddp_best.pt")
            else:
                bad_epochs += 1
            log(rank, f"epoch {epoch} val_loss {val:.4f} best {best:.4f} bad_epochs {bad_epochs}")
            if bad_epochs >= PATIENCE:
                log(rank, "early stopping")
                break

    log(rank, "training finished, waiting for other ranks")
    dist.barrier()
    dist.destroy_process_group()
    log(rank, "exit")


if __name__ == "__main__":
    print(f"torch {torch.__version__}, launching {WORLD_SIZE} gloo workers", flush=True)
    mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
