"""Siamese matcher for duplicate product listings (embedding features -> same product or not)."""
import itertools
import random
import resource
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

# shared box: cap this job's address space at 6 GiB
resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))

N_PRODUCTS = 3000
LISTINGS_PER_PRODUCT = 8
FEAT = 96
NEG_PER_POS = 3
SEED = 0


def make_listings(rng):
    centers = rng.normal(0, 1, size=(N_PRODUCTS, FEAT)).astype(np.float32)
    pid = np.repeat(np.arange(N_PRODUCTS), LISTINGS_PER_PRODUCT)
    x = centers[pid] + 0.6 * rng.normal(0, 1, size=(len(pid), FEAT)).astype(np.float32)
    return x, pid


def build_pairs(pid, seed):
    """All listing pairs labelled same/different, then negatives subsampled to NEG_PER_POS:1."""
    ids = pid.tolist()
    pairs = [(i, j, int(ids[i] == ids[j])) for i, j in itertools.combinations(range(len(ids)), 2)]
    pos = [p for p in pairs if p[2] == 1]
    neg = [p for p in pairs if p[2] == 0]
    random.Random(seed).shuffle(neg)
    return pos + neg[: NEG_PER_POS * len(pos)]


class PairDataset(Dataset):
    def __init__(self, x, pairs):
        self.x = torch.from_numpy(x)
        self.pairs = torch.tensor(pairs)

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, k):
        i, j, y = self.pairs[k]
        return self.x[i], self.x[j], y.float()


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEAT, 256), nn.ReLU(), nn.Linear(256, 64))

    def forward(self, a, b):
        za, zb = F.normalize(self.net(a), dim=-1), F.normalize(self.net(b), dim=-1)
        return 10 * (za * zb).sum(-1) - 5


def main():
    rng = np.random.default_rng(SEED)
    torch.manual_seed(SEED)
    x, pid = make_listings(rng)
    n_tr = int(0.8 * N_PRODUCTS) * LISTINGS_PER_PRODUCT
    print(f"listings={len(pid)} products={N_PRODUCTS} train_listings={n_tr}", flush=True)

    t0 = time.time()
    train_pairs = build_pairs(pid[:n_tr], SEED)
    val_pairs = [(i + n_tr, j + n_tr, y) for i, j, y in build_pairs(pid[n_tr:], SEED + 1)]
    print(f"pairs train={len(train_pairs)} val={len(val_pairs)} ({time.time() - t0:.1f}s)", flush=True)

    train_dl = DataLoader(PairDataset(x, train_pairs), batch_size=512, shuffle=True)
    val_dl = DataLoader(PairDataset(x, val_pairs), batch_size=2048)
    model = Tower()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        model.train()
        for a, b, y in train_dl:
            loss = F.binary_cross_entropy_with_logits(model(a, b), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for a, b, y in val_dl:
                correct += ((model(a, b) > 0).float() == y).sum().item()
                total += len(y)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {correct / total:.4f}", flush=True)


if __name__ == "__main__":
    main()
