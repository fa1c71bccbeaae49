"""House-price regressor trained with DDP on CPU (gloo), with early stopping on validation loss."""
import datetime
import os
import time
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

MAX_EPOCHS = 60
PATIENCE = 3
BATCH_SIZE = 64
LR = 3e-3


def make_listings(n=3000, d=20, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    y = (X[:, :4] @ np.array([1.5, -2.0, 0.7, 1.1]) + 0.5 * X[:, 4] * X[:, 5]
         + rng.normal(0, 1.5, size=n)).astype(np.float32)
    return X, y


def log(msg):
    print(f"[rank {dist.get_rank()}] {msg}", flush=True)


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=90))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    X, y = make_listings()
    train_ds = TensorDataset(torch.from_numpy(X[:2400]), torch.from_numpy(y[:2400]))
    val_ds = TensorDataset(torch.from_numpy(X[2400:]), torch.from_numpy(y[2400:]))
    train_sampler = DistributedSampler(train_ds, shuffle=True)
    val_sampler = DistributedSampler(val_ds, shuffle=False)
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, sampler=train_sampler)
    val_dl = DataLoader(val_ds, batch_size=256, sampler=val_sampler)

    model = DDP(nn.Sequential(nn.Linear(20, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                              nn.Linear(512, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    loss_fn = nn.MSELoss()

    best, bad_epochs = float("inf"), 0
    for epoch in range(MAX_EPOCHS):
        t0 = time.time()
        train_sampler.set_epoch(epoch)
        model.train()
        total, n = 0.0, 0
        for xb, yb in train_dl:
            loss = loss_fn(model(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
            n += len(yb)
        model.eval()
        val_total, val_n = 0.0, 0
        with torch.no_grad():
            for xb, yb in val_dl:
                val_total += loss_fn(model.module(xb).squeeze(-1), yb).item() * len(yb)
                val_n += len(yb)
        val_loss = val_total / val_n
        log(f"epoch {epoch} train_mse {total / n:.3f} val_mse {val_loss:.3f} ({time.time() - t0:.1f}s)")
        if val_loss < best - 1e-3:
            best, bad_epochs = val_loss, 0
            if rank == 0:
                torch.save(model.module.state_dict(), "best_price_model.pt")
        else:
            bad_epochs += 1
            if bad_epochs >= PATIENCE:
                log(f"early stopping at epoch {epoch} (best val_mse {best:.3f})")
                break

    dist.barrier()
    if rank == 0:
        log("training finished, best model saved to best_price_model.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
