"""Implicit-feedback recommender (matrix factorisation with BPR loss) on the shop's click log."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

EMB_DIM = 64


def load_clicks(n_rows=200_000, seed=0):
    """Stand-in for the warehouse export: (customer_id, product_id) pairs.
    customer_id is the CRM account number, product_id the catalogue index."""
    rng = np.random.default_rng(seed)
    accounts = 4_100_000_000 + rng.choice(900_000_000, size=20_000, replace=False)
    customers = rng.choice(accounts, size=n_rows)
    products = rng.zipf(1.3, size=n_rows) % 5_000
    return customers.astype(np.int64), products.astype(np.int64)


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user.weight, std=0.05)
        nn.init.normal_(self.item.weight, std=0.05)

    def score(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1)


def main():
    torch.manual_seed(0)
    users, items = load_clicks()
    print(f"clicks: {len(users):,}  distinct customers: {len(np.unique(users)):,}  "
          f"distinct products: {len(np.unique(items)):,}", flush=True)

    n_users = int(users.max()) + 1
    n_items = int(items.max()) + 1
    model = MF(n_users, n_items, EMB_DIM)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    u_all = torch.from_numpy(users)
    i_all = torch.from_numpy(items)
    for epoch in range(3):
        perm = torch.randperm(len(u_all))
        total = 0.0
        for b in range(0, len(perm), 4096):
            idx = perm[b:b + 4096]
            u, pos = u_all[idx], i_all[idx]
            neg = torch.randint(0, n_items, pos.shape)
            loss = -F.logsigmoid(model.score(u, pos) - model.score(u, neg)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch} bpr_loss {total / len(u_all):.4f}", flush=True)


if __name__ == "__main__":
    main()
