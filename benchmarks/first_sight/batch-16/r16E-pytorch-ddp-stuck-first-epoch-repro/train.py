import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

EPOCHS = 3
BATCH_SIZE = 32
N_SAMPLES = 2049


def make_data(n, dim=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, dim, generator=g)
    w = torch.randn(dim, 1, generator=g)
    y = (x @ w).squeeze(1) + 0.1 * torch.randn(n, generator=g)
    return x, y


def main():
    dist.init_process_group(backend="gloo")
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    torch.manual_seed(0)

    x, y = make_data(N_SAMPLES)
    x_local, y_local = x[rank::world_size], y[rank::world_size]
    loader = DataLoader(TensorDataset(x_local, y_local), batch_size=BATCH_SIZE, shuffle=True)

    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 1))
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.MSELoss()

    if rank == 0:
        print(f"world_size={world_size} samples={N_SAMPLES} batch={BATCH_SIZE}", flush=True)
    print(f"[rank {rank}] {len(x_local)} samples, {len(loader)} batches/epoch", flush=True)

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        total = 0.0
        for step, (xb, yb) in enumerate(loader):
            pred = model(xb).squeeze(1)
            loss = loss_fn(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            if rank == 0 and step % 10 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        if rank == 0:
            print(f"epoch {epoch} done in {time.time() - t0:.1f}s, mean loss {total / len(loader):.4f}", flush=True)
            torch.save(model.module.state_dict(), f"ckpt_epoch{epoch}.pt")
            print(f"saved ckpt_epoch{epoch}.pt", flush=True)
        dist.barrier()

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
