"""Two-tower recommender: train with in-batch softmax, evaluate recall@K against the full catalogue."""
import resource
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))  # same budget as the eval pod
torch.manual_seed(0)

N_USERS, N_ITEMS, N_TOPICS = 20000, 100000, 32
DIM, BATCH, EPOCHS, EVAL_CHUNK, K = 64, 1024, 3, 512, 10


def simulate_interactions(g):
    user_topic = torch.randint(N_TOPICS, (N_USERS,), generator=g)
    item_topic = torch.randint(N_TOPICS, (N_ITEMS,), generator=g)
    by_topic = [torch.nonzero(item_topic == t).squeeze(1) for t in range(N_TOPICS)]
    users, items = [], []
    for u in range(N_USERS):
        pool = by_topic[user_topic[u]]
        picks = pool[torch.randint(len(pool), (6,), generator=g)]
        users += [u] * 6
        items += picks.tolist()
    return torch.tensor(users), torch.tensor(items), item_topic


class Tower(nn.Module):
    def __init__(self, n, dim, side=None):
        super().__init__()
        self.emb = nn.Embedding(n, dim)
        self.side = side
        self.side_emb = nn.Embedding(N_TOPICS, dim) if side is not None else None
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        h = self.emb(ids)
        if self.side is not None:
            h = h + self.side_emb(self.side[ids])
        return F.normalize(self.mlp(h), dim=-1)


@torch.no_grad()
def recall_at_k(user_tower, item_tower, users, held_out):
    item_emb = item_tower(torch.arange(N_ITEMS))
    hits = 0
    for start in range(0, len(users), EVAL_CHUNK):
        u = users[start:start + EVAL_CHUNK]
        user_emb = user_tower(u)
        scores = (user_emb[:, None, :] * item_emb[None, :, :]).sum(-1)
        topk = scores.topk(K, dim=1).indices
        hits += (topk == held_out[start:start + EVAL_CHUNK, None]).any(1).sum().item()
    return hits / len(users)


def main():
    g = torch.Generator().manual_seed(1)
    users, items, item_topic = simulate_interactions(g)
    last = torch.arange(5, len(users), 6)            # last interaction of each user is held out
    keep = torch.ones(len(users), dtype=torch.bool)
    keep[last] = False
    tr_u, tr_i = users[keep], items[keep]
    ev_u, ev_i = users[last], items[last]
    print(f"{len(tr_u)} training interactions, {len(ev_u)} held-out users, {N_ITEMS} items")

    user_tower, item_tower = Tower(N_USERS, DIM), Tower(N_ITEMS, DIM, side=item_topic)
    opt = torch.optim.Adam(list(user_tower.parameters()) + list(item_tower.parameters()), lr=1e-2)
    t0 = time.time()
    for epoch in range(EPOCHS):
        perm = torch.randperm(len(tr_u))
        for step, s in enumerate(range(0, len(perm), BATCH)):
            idx = perm[s:s + BATCH]
            logits = user_tower(tr_u[idx]) @ item_tower(tr_i[idx]).t() / 0.05
            loss = F.cross_entropy(logits, torch.arange(len(idx)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 25 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} ({time.time() - t0:.0f}s)", flush=True)
        r = recall_at_k(user_tower, item_tower, ev_u[:4000], ev_i[:4000])
        print(f"epoch {epoch} recall@{K} {r:.4f} ({time.time() - t0:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
