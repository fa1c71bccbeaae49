"""Data-parallel training of a tabular regression MLP on CPU workers (gloo).

Launch: torchrun --nproc_per_node 2 train.py
Hyper-parameters (SGD lr 0.2, momentum 0.9, global batch 256) come from the single-process
sweep, where this recipe reaches a validation MSE of ~0.02 in 4 epochs.
"""
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

GLOBAL_BATCH = 256
LR = 0.2
MOMENTUM = 0.9
EPOCHS = 4
D = 24


def make_data(n, g):
    mix = torch.randn(D, D, generator=g) * 0.4 + torch.eye(D)
    x = torch.randn(n, D, generator=g) @ mix
    x = (x - x.mean(0)) / x.std(0)
    w = torch.randn(D, generator=g)
    y = 0.5 * x @ w + torch.sin(2 * x[:, 0]) + 0.3 * torch.randn(n, generator=g)
    y = (y - y.mean()) / y.std()
    return x, y


def build_model():
    return nn.Sequential(nn.Linear(D, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))


def broadcast_params(model):
    for p in model.parameters():
        dist.broadcast(p.data, src=0)


def sync_gradients(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    x, y = make_data(50000, torch.Generator().manual_seed(1))
    train = TensorDataset(x[:40000], y[:40000])
    x_val, y_val = x[40000:], y[40000:]
    sampler = DistributedSampler(train, shuffle=True, seed=0)
    dl = DataLoader(train, batch_size=GLOBAL_BATCH // world, sampler=sampler)

    torch.manual_seed(0)
    model = build_model()
    broadcast_params(model)
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    if rank == 0:
        print(f"world={world} per-rank batch={GLOBAL_BATCH // world} steps/epoch={len(dl)} lr={LR}", flush=True)

    step = 0
    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        t0 = time.time()
        for xb, yb in dl:
            loss = ((model(xb).squeeze(-1) - yb) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            sync_gradients(model)
            opt.step()
            if rank == 0 and step % 25 == 0:
                print(f"step {step:4d} train_mse {loss.item():.4f}", flush=True)
            step += 1
        with torch.no_grad():
            val = ((model(x_val).squeeze(-1) - y_val) ** 2).mean().item()
        if rank == 0:
            print(f"epoch {epoch} val_mse {val:.4f} ({time.time() - t0:.1f}s)", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
