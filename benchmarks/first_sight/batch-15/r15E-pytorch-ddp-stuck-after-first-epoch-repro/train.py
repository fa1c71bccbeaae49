import os
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


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 1, 16, 16, generator=g)
    y = (x[:, 0, :8].mean(dim=(1, 2)) > x[:, 0, 8:].mean(dim=(1, 2))).long()
    return TensorDataset(x, y)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(32, 2)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    model.train()
    return correct / total


def run(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29513")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    torch.set_num_threads(1)

    train_ds = make_data(4096, seed=1)
    val_ds = make_data(1024, seed=2)
    sampler = DistributedSampler(train_ds, num_replicas=world_size, rank=rank, shuffle=True)
    train_loader = DataLoader(train_ds, batch_size=64, sampler=sampler)
    val_loader = DataLoader(val_ds, batch_size=256)

    model = DDP(SmallCNN())
    optim = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        t0 = time.time()
        for step, (x, y) in enumerate(train_loader):
            loss = loss_fn(model(x), y)
            optim.zero_grad()
            loss.backward()
            optim.step()
            if rank == 0 and step % 10 == 0:
                print(f"[rank0] epoch {epoch} step {step}/{len(train_loader)} loss {loss.item():.4f}",
                      flush=True)
        print(f"[rank{rank}] epoch {epoch} done in {time.time()-t0:.1f}s", flush=True)
        if rank == 0:
            acc = evaluate(model, val_loader)
            print(f"[rank0] epoch {epoch} val_acc {acc:.4f}", flush=True)
            torch.save(model.module.state_dict(), f"ckpt_epoch{epoch}.pt")
        dist.barrier()

    dist.destroy_process_group()


if __name__ == "__main__":
    print(f"torch {torch.__version__}, spawning {WORLD_SIZE} processes (gloo, CPU)", flush=True)
    mp.spawn(run, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
