import os
import time

import numpy as np
import psutil
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class ProductCatalog(Dataset):
    """Synthetic product catalog: each item is a bag of 48 attribute/token ids."""

    def __init__(self, n, vocab=20000, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.tokens = torch.randint(1, vocab, (n, 48), generator=g)

    def __len__(self):
        return len(self.tokens)

    def __getitem__(self, i):
        return i, self.tokens[i]


class ItemTower(nn.Module):
    def __init__(self, vocab=20000, dim=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 1024), nn.GELU(), nn.Linear(1024, 1024), nn.GELU(),
                                 nn.Linear(1024, 128))

    def forward(self, tokens):
        h = self.emb(tokens).mean(1)
        return F.normalize(self.mlp(h), dim=-1)


def rss_gb():
    return psutil.Process(os.getpid()).memory_info().rss / 1024 ** 3


def main():
    print(f"torch {torch.__version__} | threads {torch.get_num_threads()}")
    model = ItemTower()
    if os.path.exists("item_tower.pt"):
        model.load_state_dict(torch.load("item_tower.pt"))
    model.eval()

    catalog = ProductCatalog(300_000)
    loader = DataLoader(catalog, batch_size=1024, shuffle=False)
    print(f"encoding {len(catalog)} items in {len(loader)} batches | RSS {rss_gb():.2f} GB")

    ids, vectors = [], []
    t0 = time.time()
    for b, (idx, tokens) in enumerate(loader):
        vec = model(tokens)
        ids.append(idx)
        vectors.append(vec)
        if b % 25 == 0:
            print(f"batch {b:3d}/{len(loader)} RSS {rss_gb():.2f} GB ({time.time() - t0:.0f}s)")
    index = torch.cat(vectors)
    np.save("item_index.npy", index.numpy())
    np.save("item_ids.npy", torch.cat(ids).numpy())
    print(f"saved index {tuple(index.shape)} | RSS {rss_gb():.2f} GB")


if __name__ == "__main__":
    main()
