"""CPU DDP (gloo) training over pre-tokenised shard files, one process per socket."""
import datetime
import os
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import ConcatDataset, DataLoader, TensorDataset

WORLD_SIZE = 2
SHARD_ROWS = [4096, 4096, 4096, 4096, 2731]   # the export writes 4096-row shards + remainder
VOCAB, SEQ, N_CLASSES = 2000, 32, 5
BATCH = 64
EPOCHS = 2


def load_shard(idx):
    rng = np.random.default_rng(1000 + idx)
    n = SHARD_ROWS[idx]
    y = rng.integers(0, N_CLASSES, n)
    tok = rng.integers(0, VOCAB, (n, SEQ))
    tok[:, 0] = y * 7 + 3                              # the label leaks through the first token
    return TensorDataset(torch.from_numpy(tok), torch.from_numpy(y))


class BagOfTokens(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 64, mode="mean")
        self.fc = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))

    def forward(self, tok):
        return self.fc(self.emb(tok))


def worker(rank, world_size):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29583"
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)

    my_shards = list(range(len(SHARD_ROWS)))[rank::world_size]
    ds = ConcatDataset([load_shard(i) for i in my_shards])
    dl = DataLoader(ds, batch_size=BATCH, shuffle=True)
    print(f"[rank {rank}] shards {my_shards} rows {len(ds)} batches/epoch {len(dl)}", flush=True)

    model = DDP(BagOfTokens())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(EPOCHS):
        t0 = time.time()
        stats = torch.zeros(3, dtype=torch.float64)
        for step, (tok, y) in enumerate(dl):
            logits = model(tok)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats += torch.tensor([loss.item() * len(y), (logits.argmax(1) == y).sum().item(), len(y)],
                                  dtype=torch.float64)
            if rank == 0 and step % 40 == 0:
                print(f"[rank 0] epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        if rank == 0:
            print(f"[rank 0] epoch {epoch} done: local loss {stats[0] / stats[2]:.4f} "
                  f"acc {stats[1] / stats[2]:.4f} ({time.time() - t0:.1f}s)", flush=True)
    if rank == 0:
        torch.save(model.module.state_dict(), os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                           "bag_of_tokens.pt"))
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
