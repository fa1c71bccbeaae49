"""DDP (gloo, CPU) training of a tabular regressor with early stopping on validation loss."""
import datetime
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
EPOCHS = 30
PATIENCE = 2


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    y = x[:, :4].sum(1, keepdim=True) + 0.5 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y)


def log(rank, msg):
    print(f"[rank{rank} {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run(rank):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE,
                            timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)
    torch.set_num_threads(1)

    train_ds, val_ds = make_data(8000, 1), make_data(1000, 2)
    sampler = DistributedSampler(train_ds, shuffle=True)
    train_dl = DataLoader(train_ds, batch_size=128, sampler=sampler)
    val_dl = DataLoader(val_ds, batch_size=500)

    model = DDP(nn.Sequential(nn.Linear(16, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                              nn.Linear(256, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    best, bad_epochs = float("inf"), 0

    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        model.train()
        for x, y in train_dl:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()

        if rank == 0:
            model.eval()
            with torch.no_grad():
                val = sum(nn.functional.mse_loss(model.module(x), y, reduction="sum").item()
                          for x, y in val_dl) / len(val_ds)
            log(rank, f"epoch {epoch} train_loss {loss.item():.4f} val_mse {val:.4f}")
            if val < best - 1e-3:
                best, bad_epochs = val, 0
                torch.save(model.module.state_dict(), "best.pt")
            else:
                bad_epochs += 1
                if bad_epochs >= PATIENCE:
                    log(rank, f"early stopping at epoch {epoch} (best val_mse {best:.4f})")
                    break

    log(rank, "training loop finished, waiting for other ranks")
    dist.barrier()
    log(rank, "done")
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(run, nprocs=WORLD_SIZE, join=True)
