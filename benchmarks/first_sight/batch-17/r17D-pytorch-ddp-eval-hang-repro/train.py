"""2-process CPU DDP (gloo) training of a small image classifier on synthetic 16x16 images."""
import datetime
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

WORLD_SIZE = 2
EPOCHS = 3
BATCH = 64


def make_dataset(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = torch.randn(n, 1, 16, 16, generator=g)
    for c in range(4):
        r, k = divmod(c, 2)
        x[y == c, :, r * 8:(r + 1) * 8, k * 8:(k + 1) * 8] += 0.25
    return TensorDataset(x, y)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
        )
        self.fc = nn.Linear(32 * 4, 4)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


@torch.no_grad()
def evaluate(model, loader):
    """Accuracy over the full validation set, summed across ranks."""
    model.eval()
    stats = torch.zeros(2)
    for x, y in loader:
        stats[0] += (model(x).argmax(1) == y).sum()
        stats[1] += y.numel()
    dist.all_reduce(stats, op=dist.ReduceOp.SUM)
    model.train()
    return (stats[0] / stats[1]).item()


def worker(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("gloo", rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)
    torch.set_num_threads(1)

    train_ds, val_ds = make_dataset(6000, 1), make_dataset(1000, 2)
    train_sampler = DistributedSampler(train_ds, num_replicas=world_size, rank=rank, shuffle=True)
    val_sampler = DistributedSampler(val_ds, num_replicas=world_size, rank=rank, shuffle=False)
    train_dl = DataLoader(train_ds, batch_size=BATCH, sampler=train_sampler)
    val_dl = DataLoader(val_ds, batch_size=256, sampler=val_sampler)

    model = DDP(SmallCNN())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    crit = nn.CrossEntropyLoss()
    best = 0.0

    for epoch in range(EPOCHS):
        train_sampler.set_epoch(epoch)
        t0, total = time.time(), 0.0
        for x, y in train_dl:
            opt.zero_grad()
            loss = crit(model(x), y)
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"[rank {rank}] epoch {epoch} train_loss {total / len(train_dl):.4f} "
              f"({time.time() - t0:.1f}s)", flush=True)

        if rank == 0:
            acc = evaluate(model, val_dl)
            print(f"[rank 0] epoch {epoch} val_acc {acc:.4f}", flush=True)
            if acc > best:
                best = acc
                torch.save(model.module.state_dict(), "/tmp/ddp_cnn_best.pt")
        dist.barrier()

    if rank == 0:
        print(f"done, best val_acc {best:.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    print(f"torch {torch.__version__}, launching {WORLD_SIZE} gloo workers", flush=True)
    mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
    sys.exit(0)
