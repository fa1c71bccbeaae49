"""2-process CPU DDP training (gloo) followed by a standalone test evaluation of the saved checkpoint."""
import os
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

WORLD_SIZE = 2
EPOCHS = 4
D_IN, N_CLASSES = 64, 10
CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ckpt_last.pt")


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(N_CLASSES, D_IN, generator=torch.Generator().manual_seed(1234)) * 0.22
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = centers[y] + torch.randn(n, D_IN, generator=g)
    return x, y


class Net(nn.Module):
    def __init__(self, aux_head=True):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(D_IN, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU())
        self.cls = nn.Linear(128, N_CLASSES)
        # auxiliary head for deep supervision, only used while training
        self.aux = nn.Linear(256, N_CLASSES) if aux_head else None

    def forward(self, x):
        h1 = self.trunk[1](self.trunk[0](x))
        h2 = self.trunk[3](self.trunk[2](h1))
        logits = self.cls(h2)
        if self.aux is not None and self.training:
            return logits, self.aux(h1)
        return logits


def train_worker(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29571")
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)

    x, y = make_data(8000, seed=0)
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank, shuffle=True)
    dl = DataLoader(ds, batch_size=64, sampler=sampler)

    model = DDP(Net(aux_head=True))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        correct = seen = 0
        loss_sum = torch.zeros(1)
        for xb, yb in dl:
            logits, aux_logits = model(xb)
            loss = F.cross_entropy(logits, yb) + 0.3 * F.cross_entropy(aux_logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.detach() * len(yb)
            correct += (logits.argmax(1) == yb).sum().item()
            seen += len(yb)
        stats = torch.tensor([loss_sum.item(), correct, seen], dtype=torch.float64)
        dist.all_reduce(stats)
        if rank == 0:
            print(f"[train] epoch {epoch} loss {stats[0] / stats[2]:.4f} train_acc {stats[1] / stats[2]:.4f}",
                  flush=True)
    if rank == 0:
        torch.save(model.state_dict(), CKPT)
        print(f"[train] saved checkpoint to {CKPT}", flush=True)
    dist.barrier()
    dist.destroy_process_group()


def evaluate_checkpoint(path):
    model = Net(aux_head=False)
    state = torch.load(path, map_location="cpu")
    # checkpoint also contains the aux head, which the eval model does not have
    model.load_state_dict(state, strict=False)
    model.eval()
    x, y = make_data(4000, seed=99)
    dl = DataLoader(TensorDataset(x, y), batch_size=500)
    correct = 0
    with torch.no_grad():
        for xb, yb in dl:
            correct += (model(xb).argmax(1) == yb).sum().item()
    print(f"[eval] test_acc {correct / len(y):.4f} on {len(y)} held-out samples")


if __name__ == "__main__":
    mp.spawn(train_worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
    evaluate_checkpoint(CKPT)
