"""BPR matrix-factorisation recommender on the last 90 days of purchases.
Catalogue is restricted to the active assortment (items sold >= 20 times)."""
import random
import time
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

SEED = 7
DIM = 32
EPOCHS = 5
BATCH = 512
MIN_ITEM_SALES = 20


def load_purchases(seed=SEED):
    """(user_id, item_id) purchase log, synthetic stand-in for the warehouse export."""
    rng = np.random.default_rng(seed)
    n_users, n_items = 6000, 1500
    pop = rng.zipf(1.6, n_items).astype(float)
    pop /= pop.sum()
    rows = []
    for u in range(n_users):
        k = int(min(3 + rng.pareto(1.5) * 6, n_items))
        for i in rng.choice(n_items, size=k, replace=False, p=pop):
            rows.append((u, int(i)))
    return rows


def filter_assortment(rows, min_sales=MIN_ITEM_SALES):
    sales = defaultdict(int)
    for _, i in rows:
        sales[i] += 1
    keep = sorted(i for i, c in sales.items() if c >= min_sales)
    item_map = {i: j for j, i in enumerate(keep)}
    users = sorted({u for u, i in rows if i in item_map})
    user_map = {u: j for j, u in enumerate(users)}
    return [(user_map[u], item_map[i]) for u, i in rows if i in item_map], len(users), len(keep)


class BPRTriples(Dataset):
    def __init__(self, pairs, n_items):
        self.pairs = pairs
        self.n_items = n_items
        self.user_pos = defaultdict(set)
        for u, i in pairs:
            self.user_pos[u].add(i)

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx):
        u, pos = self.pairs[idx]
        neg = random.randrange(self.n_items)
        while neg in self.user_pos[u]:
            neg = random.randrange(self.n_items)
        return u, pos, neg


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=DIM):
        super().__init__()
        self.U = nn.Embedding(n_users, dim)
        self.I = nn.Embedding(n_items, dim)
        nn.init.normal_(self.U.weight, std=0.05)
        nn.init.normal_(self.I.weight, std=0.05)

    def forward(self, u, i):
        return (self.U(u) * self.I(i)).sum(-1)


def main():
    random.seed(SEED); torch.manual_seed(SEED)
    t0 = time.time()
    rows = load_purchases()
    pairs, n_users, n_items = filter_assortment(rows)
    print(f"{len(rows)} purchases -> {len(pairs)} after assortment filter; "
          f"{n_users} users x {n_items} items ({time.time() - t0:.1f}s)")
    ds = BPRTriples(pairs, n_items)
    dl = DataLoader(ds, batch_size=BATCH, shuffle=True, num_workers=2)
    model = MF(n_users, n_items)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(EPOCHS):
        t_ep = time.time()
        print(f"epoch {epoch}: {len(dl)} batches")
        for step, (u, p, n) in enumerate(dl):
            diff = model(u, p) - model(u, n)
            loss = -nn.functional.logsigmoid(diff).mean() + 1e-5 * (model.U(u).pow(2).sum() / len(u))
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 20 == 0:
                print(f"  step {step:4d}  bpr_loss={loss.item():.4f}  ({time.time() - t_ep:.1f}s)")
        print(f"epoch {epoch} done in {time.time() - t_ep:.1f}s")
    torch.save(model.state_dict(), "bpr_mf.pt")


if __name__ == "__main__":
    main()
