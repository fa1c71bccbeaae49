import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class ProductViews(Dataset):
    """Synthetic product-matching data: each product id has a latent vector, every item is a noisy view."""

    def __init__(self, n_products, views_per_product, d_raw=96, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.proto = torch.randn(n_products, d_raw, generator=g)
        self.labels = torch.arange(n_products).repeat_interleave(views_per_product)
        self.noise = 0.9 * torch.randn(len(self.labels), d_raw, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        y = self.labels[i]
        return self.proto[y] + self.noise[i], y


class PairSampler(Dataset):
    """Returns two different views of the same product for contrastive training."""

    def __init__(self, base, views_per_product):
        self.base, self.v = base, views_per_product

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        j = (i // self.v) * self.v + torch.randint(self.v, (1,)).item()
        return self.base[i][0], self.base[j][0]


class Encoder(nn.Module):
    def __init__(self, d_raw=96, d_emb=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_raw, 256), nn.GELU(), nn.Linear(256, d_emb))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


def info_nce(a, b, temperature=0.07):
    logits = a @ b.T / temperature
    target = torch.arange(a.size(0))
    return 0.5 * (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target))


@torch.no_grad()
def embed(model, ds, bs=4096):
    model.eval()
    out, ys = [], []
    for x, y in DataLoader(ds, batch_size=bs):
        out.append(model(x))
        ys.append(y)
    model.train()
    return torch.cat(out), torch.cat(ys)


@torch.no_grad()
def recall_at_k(model, ds, ks=(1, 5, 10)):
    emb, labels = embed(model, ds)
    sim = emb @ emb.T
    sim.fill_diagonal_(float("-inf"))
    topk = sim.topk(max(ks), dim=1).indices
    hit = labels[topk] == labels[:, None]
    return {k: hit[:, :k].any(dim=1).float().mean().item() for k in ks}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--val-products", type=int, default=2500)
    ap.add_argument("--views", type=int, default=40)
    args = ap.parse_args()
    torch.manual_seed(0)

    train_base = ProductViews(1500, args.views, seed=1)
    val_ds = ProductViews(args.val_products, args.views, seed=2)
    print(f"torch {torch.__version__} | train items {len(train_base)} | val items {len(val_ds)}")
    loader = DataLoader(PairSampler(train_base, args.views), batch_size=256, shuffle=True, drop_last=True)

    model = Encoder()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    for epoch in range(args.epochs):
        t0, tot = time.time(), 0.0
        for a, b in loader:
            loss = info_nce(model(a), model(b))
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        print(f"epoch {epoch} | train_loss {tot / len(loader):.4f} | {time.time() - t0:.1f}s | evaluating...", flush=True)
        r = recall_at_k(model, val_ds)
        print(f"epoch {epoch} | " + " ".join(f"R@{k} {v:.4f}" for k, v in r.items()))
    torch.save(model.state_dict(), "encoder.pt")


if __name__ == "__main__":
    main()
