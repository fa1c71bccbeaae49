"""Product-matching embedder (triplet loss) for the catalogue dedup service.

Input: 128-d pooled text+image features of a listing. Two listings of the same
product should be close in the 64-d embedding space; we monitor recall@1 on a
held-out set of products.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
N_PROD, PER_PROD, D_IN, D_EMB, MARGIN = 3000, 6, 128, 64, 0.5

centers = torch.randn(N_PROD, D_IN, generator=gen)
feats = centers.repeat_interleave(PER_PROD, 0) + 0.9 * torch.randn(N_PROD * PER_PROD, D_IN, generator=gen)
labels = torch.arange(N_PROD).repeat_interleave(PER_PROD)
train_mask = labels < 2500
Xtr, ytr = feats[train_mask], labels[train_mask]
Xva, yva = feats[~train_mask], labels[~train_mask]
by_prod = {p: (ytr == p).nonzero().squeeze(1) for p in range(2500)}

model = nn.Sequential(
    nn.Linear(D_IN, 256), nn.ReLU(),
    nn.Linear(256, 256), nn.ReLU(),
    nn.Linear(256, D_EMB),
)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def sample_triplets(batch):
    prods = torch.randint(0, 2500, (batch,))
    negs = (prods + torch.randint(1, 2500, (batch,))) % 2500
    a, p, n = [], [], []
    for q, r in zip(prods.tolist(), negs.tolist()):
        i = by_prod[q][torch.randperm(PER_PROD)[:2]]
        a.append(i[0]); p.append(i[1]); n.append(by_prod[r][torch.randint(0, PER_PROD, (1,))][0])
    return Xtr[torch.stack(a)], Xtr[torch.stack(p)], Xtr[torch.stack(n)]


def triplet_loss(ea, ep, en, margin=MARGIN):
    d_pos = (ea - ep).pow(2).sum(1)
    d_neg = (ea - en).pow(2).sum(1)
    return (d_pos - d_neg + margin).mean()


@torch.no_grad()
def recall_at_1():
    model.eval()
    e = model(Xva)
    d = torch.cdist(e, e)
    d.fill_diagonal_(float("inf"))
    nn_idx = d.argmin(1)
    model.train()
    return (yva[nn_idx] == yva).float().mean().item(), e.norm(dim=1).mean().item()


for step in range(1, 3001):
    xa, xp, xn = sample_triplets(128)
    loss = triplet_loss(model(xa), model(xp), model(xn))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 250 == 0 or (step <= 250 and step % 25 == 0):
        r1, norm = recall_at_1()
        print(f"step {step:5d} loss {loss.item():12.4f} val_recall@1 {r1:.4f} mean_emb_norm {norm:10.2f}",
              flush=True)
