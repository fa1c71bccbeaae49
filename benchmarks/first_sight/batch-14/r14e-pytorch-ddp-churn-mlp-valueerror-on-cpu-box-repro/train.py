"""Churn model trained with DistributedDataParallel (launched with torchrun)."""
import os
import time
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

EPOCHS = 4
BATCH_SIZE = 256
LR = 1e-3


def make_customers(n=40000, d=32, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    w = rng.normal(size=d)
    logits = X @ w * 0.6 + 0.8 * np.sin(X[:, 0] * X[:, 1]) - 1.0
    y = (rng.random(n) < 1 / (1 + np.exp(-logits))).astype(np.float32)
    return X, y


def setup():
    local_rank = int(os.environ["LOCAL_RANK"])
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    dist.init_process_group(backend=backend)
    return local_rank, device


def main():
    local_rank, device = setup()
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    X, y = make_customers()
    n_val = 4000
    train_ds = TensorDataset(torch.from_numpy(X[n_val:]), torch.from_numpy(y[n_val:]))
    val_ds = TensorDataset(torch.from_numpy(X[:n_val]), torch.from_numpy(y[:n_val]))
    sampler = DistributedSampler(train_ds, num_replicas=world, rank=rank, shuffle=True)
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, sampler=sampler)
    val_dl = DataLoader(val_ds, batch_size=1024)
    if rank == 0:
        print(f"world size {world} backend {dist.get_backend()} device {device} "
              f"train {len(train_ds)} val {len(val_ds)}", flush=True)

    model = nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                          nn.Linear(256, 1)).to(device)
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        model.train()
        t0, total, steps = time.time(), 0.0, 0
        for xb, yb in train_dl:
            xb, yb = xb.to(device), yb.to(device)
            loss = loss_fn(model(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            steps += 1
        if rank == 0:
            model.eval()
            correct = 0
            with torch.no_grad():
                for xb, yb in val_dl:
                    pred = (model.module(xb.to(device)).squeeze(-1) > 0).float()
                    correct += (pred == yb.to(device)).sum().item()
            print(f"epoch {epoch} train_loss {total / steps:.4f} val_acc {correct / len(val_ds):.3f} "
                  f"({time.time() - t0:.1f}s)", flush=True)
        dist.barrier()
    if rank == 0:
        torch.save(model.module.state_dict(), "churn_ddp.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
