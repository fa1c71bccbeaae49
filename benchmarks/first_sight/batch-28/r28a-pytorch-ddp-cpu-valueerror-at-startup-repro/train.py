"""Defect-patch CNN, data-parallel training.

Same script as on the GPU cluster; on the CPU dev box run it with
    torchrun --nproc_per_node 2 train.py
"""
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

CFG = {
    "epochs": 4,
    "batch_size": 64,          # per process
    "lr": 0.05,
    "sync_bn": True,           # small per-process batches -> sync BN statistics across workers
}


def setup():
    use_cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if use_cuda else "gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    device = torch.device(f"cuda:{int(os.environ['LOCAL_RANK'])}" if use_cuda else "cpu")
    return rank, world, device


def build_model():
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, 2),
    )


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 1, 32, 32, generator=g) * 0.5
    y = torch.randint(0, 2, (n,), generator=g)
    # defects: a bright short scratch somewhere in the patch
    for k in torch.nonzero(y).squeeze(1).tolist():
        r, c = torch.randint(4, 28, (2,), generator=g).tolist()
        x[k, 0, r, c - 3:c + 3] += 2.5
    return TensorDataset(x, y)


def main():
    rank, world, device = setup()
    torch.manual_seed(0)
    train_ds, val_ds = make_data(8000, 1), make_data(2000, 2)
    sampler = DistributedSampler(train_ds, num_replicas=world, rank=rank, shuffle=True)
    train_dl = DataLoader(train_ds, batch_size=CFG["batch_size"], sampler=sampler)

    model = build_model()
    if CFG["sync_bn"]:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = model.to(device)
    model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    opt = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=0.9)
    if rank == 0:
        print(f"world_size={world} device={device} params={sum(p.numel() for p in model.parameters())}")

    for epoch in range(CFG["epochs"]):
        sampler.set_epoch(epoch)
        model.train()
        t0 = time.time()
        for x, y in train_dl:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            model.eval()
            with torch.no_grad():
                xv, yv = val_ds.tensors
                acc = (model.module(xv.to(device)).argmax(1).cpu() == yv).float().mean().item()
            print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.4f} ({time.time() - t0:.1f}s)",
                  flush=True)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
