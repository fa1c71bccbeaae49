"""Data-parallel training of a tabular churn classifier on CPU (gloo), launched with mp.spawn."""
import os
import socket
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
EPOCHS = 5
N_FEATURES = 24


def log(rank, msg):
    print(f"[{time.strftime('%H:%M:%S')}] [rank {rank}] {msg}", flush=True)


def find_free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def setup(rank, world_size):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(find_free_port())
    log(rank, f"joining process group (world_size={world_size}, backend=gloo)")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    log(rank, "process group ready")


def make_data(n=20000, seed=0):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, N_FEATURES, generator=g)
    w = torch.randn(N_FEATURES, generator=g)
    logits = X @ w * 0.7 + 0.5 * X[:, 0] * X[:, 1]
    y = (logits + 0.3 * torch.randn(n, generator=g) > 0).float()
    return X, y


def worker(rank, world_size):
    setup(rank, world_size)
    torch.manual_seed(0)
    X, y = make_data()
    n_train = 16000
    train_ds = TensorDataset(X[:n_train], y[:n_train])
    val_X, val_y = X[n_train:], y[n_train:]
    sampler = DistributedSampler(train_ds, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(train_ds, batch_size=128, sampler=sampler)

    model = nn.Sequential(nn.Linear(N_FEATURES, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    ddp = DDP(model)
    opt = torch.optim.Adam(ddp.parameters(), lr=1e-3)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        ddp.train()
        total, count = 0.0, 0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(ddp(xb).squeeze(1), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
            count += len(xb)
        stats = torch.tensor([total, count])
        dist.all_reduce(stats)
        if rank == 0:
            ddp.eval()
            with torch.no_grad():
                acc = ((ddp.module(val_X).squeeze(1) > 0).float() == val_y).float().mean().item()
            log(rank, f"epoch {epoch} train_loss {stats[0] / stats[1]:.4f} val_acc {acc:.4f}")
    dist.barrier()
    if rank == 0:
        torch.save(model.state_dict(), "churn_mlp.pt")
        log(rank, "saved churn_mlp.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    print(f"torch {torch.__version__}, python {sys.version.split()[0]}, spawning {WORLD_SIZE} workers", flush=True)
    mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
