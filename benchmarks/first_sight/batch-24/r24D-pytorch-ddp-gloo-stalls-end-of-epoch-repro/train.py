import datetime
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, TensorDataset

WORLD_SIZE = 2
N_TRAIN = 20001
N_VAL = 4000
BATCH = 100


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 40, generator=g)
    w = torch.randn(40, 4, generator=torch.Generator().manual_seed(99))
    y = (x @ w + 0.5 * torch.randn(n, 4, generator=g)).argmax(1)
    return x, y


class ShardedTensors(Dataset):
    """Each rank keeps every world_size-th row so we never materialise the other shards."""

    def __init__(self, x, y, rank, world_size):
        self.x = x[rank::world_size]
        self.y = y[rank::world_size]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = n = 0
    for xb, yb in loader:
        correct += (model(xb).argmax(1) == yb).sum().item()
        n += len(yb)
    model.train()
    return correct / n


def log(rank, msg):
    print(f"[rank {rank} {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(minutes=1))
    torch.manual_seed(0)
    x_tr, y_tr = make_data(N_TRAIN, 0)
    x_va, y_va = make_data(N_VAL, 1)
    train_ds = ShardedTensors(x_tr, y_tr, rank, world_size)
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=500)
    log(rank, f"torch {torch.__version__} backend gloo | {len(train_ds)} train rows, {len(train_dl)} batches/epoch")

    model = DDP(nn.Sequential(nn.Linear(40, 128), nn.ReLU(), nn.Linear(128, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(3):
        model.train()
        t0, tot = time.time(), 0.0
        for step, (xb, yb) in enumerate(train_dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        log(rank, f"epoch {epoch} train done: loss {tot / len(train_dl):.4f} ({time.time() - t0:.1f}s)")

        if rank == 0:
            acc = evaluate(model.module, val_dl)
            log(rank, f"epoch {epoch} val_acc {acc:.4f}")
            torch.save(model.module.state_dict(), f"ddp_mlp_epoch{epoch}.pt")
        dist.barrier()

    dist.barrier()
    log(rank, "finished")
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(run, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
