"""Two-tower retrieval model: query features -> item embedding, eval recall@k over the catalogue."""
import argparse
import resource
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def rss_gb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2


def make_catalogue(n_items, d_raw, seed=0):
    g = torch.Generator().manual_seed(seed)
    items = torch.randn(n_items, d_raw, generator=g)
    return items


def make_queries(items, n_q, seed):
    g = torch.Generator().manual_seed(seed)
    target = torch.randint(0, items.size(0), (n_q,), generator=g)
    q = items[target] + 0.6 * torch.randn(n_q, items.size(1), generator=g)
    return q, target


class Tower(nn.Module):
    def __init__(self, d_in, d_out=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 256), nn.GELU(), nn.Linear(256, d_out))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


@torch.no_grad()
def embed(tower, x, bs=8192):
    return torch.cat([tower(x[i:i + bs]) for i in range(0, x.size(0), bs)])


@torch.no_grad()
def recall_at_k(q_tower, i_tower, queries, targets, items, k=10):
    q_emb = embed(q_tower, queries)
    i_emb = embed(i_tower, items)
    print(f"  embedded {q_emb.size(0)} queries, {i_emb.size(0)} items (rss {rss_gb():.2f} GB)")
    sims = q_emb @ i_emb.T
    topk = sims.topk(k, dim=1).indices
    hits = (topk == targets.unsqueeze(1)).any(dim=1).float()
    return hits.mean().item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--eval-split", default="full", choices=["dev", "full"])
    p.add_argument("--epochs", type=int, default=2)
    args = p.parse_args()
    torch.manual_seed(0)

    d_raw = 64
    n_items = 300_000 if args.eval_split == "full" else 5_000
    n_eval_q = 60_000 if args.eval_split == "full" else 1_000
    items = make_catalogue(n_items, d_raw)
    train_q, train_t = make_queries(items, 100_000, seed=1)
    eval_q, eval_t = make_queries(items, n_eval_q, seed=2)

    q_tower, i_tower = Tower(d_raw), Tower(d_raw)
    opt = torch.optim.Adam(list(q_tower.parameters()) + list(i_tower.parameters()), lr=1e-3)
    dl = DataLoader(TensorDataset(train_q, train_t), batch_size=512, shuffle=True)

    for epoch in range(args.epochs):
        t0 = time.time()
        for step, (qb, tb) in enumerate(dl):
            qe = q_tower(qb)
            ie = i_tower(items[tb])
            logits = qe @ ie.T / 0.05
            loss = F.cross_entropy(logits, torch.arange(qb.size(0)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 50 == 0:
                print(f"epoch {epoch} step {step} in-batch loss {loss.item():.4f}")
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s, evaluating on {args.eval_split} split")
        r = recall_at_k(q_tower, i_tower, eval_q, eval_t, items)
        print(f"epoch {epoch} recall@10 {r:.4f} (peak rss {rss_gb():.2f} GB)")


if __name__ == "__main__":
    main()
