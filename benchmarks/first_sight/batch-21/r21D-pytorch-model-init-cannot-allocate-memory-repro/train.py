"""Matrix-factorisation recommender (implicit feedback, BPR loss) on the interactions export."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


def load_interactions(n_users=20000, n_items=3000, n_events=200000):
    # the export carries the CRM account number and the catalogue SKU for every event
    account_numbers = np.unique(rng.integers(10_000_000, 4_200_000_000, 2 * n_users))[:n_users]
    skus = np.unique(rng.integers(100_000, 999_999, 2 * n_items))[:n_items]
    rng.shuffle(account_numbers)
    rng.shuffle(skus)
    u = rng.integers(0, n_users, n_events)
    i = (u * 7 + rng.integers(0, 50, n_events)) % n_items       # users prefer a band of items
    return account_numbers[u], skus[i]


class BPRTriples(Dataset):
    def __init__(self, users, items, item_pool, n_neg=1):
        self.users = torch.as_tensor(users)
        self.items = torch.as_tensor(items)
        self.item_pool = torch.as_tensor(item_pool)
        self.n_neg = n_neg

    def __len__(self):
        return len(self.users)

    def __getitem__(self, k):
        neg = self.item_pool[torch.randint(len(self.item_pool), (1,))].squeeze(0)
        return self.users[k], self.items[k], neg


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user.weight, std=0.05)
        nn.init.normal_(self.item.weight, std=0.05)

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1)


users, items = load_interactions()
print(f"events={len(users)} unique users={len(np.unique(users))} unique items={len(np.unique(items))}")
n_users = int(users.max()) + 1
n_items = int(items.max()) + 1
print(f"embedding tables: users={n_users} items={n_items}")

t0 = time.time()
model = MF(n_users, n_items)
print(f"model built in {time.time() - t0:.1f}s, params={sum(p.numel() for p in model.parameters()):,}")

ds = BPRTriples(users, items, np.unique(items))
dl = DataLoader(ds, batch_size=1024, shuffle=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(3):
    tot = 0.0
    for u, pos, neg in dl:
        diff = model(u, pos) - model(u, neg)
        loss = -nn.functional.logsigmoid(diff).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(u)
    print(f"epoch {epoch} bpr_loss {tot / len(ds):.4f}")
