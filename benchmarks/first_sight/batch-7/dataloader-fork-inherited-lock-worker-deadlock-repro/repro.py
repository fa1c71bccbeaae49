# Feature cache shared by the Dataset; a background thread warms the cache while
# training starts so the first epoch is not slowed down by cache misses.
import threading
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FeatureCache:
    def __init__(self, n):
        self.lock = threading.Lock()
        self.store = {}
        self.n = n

    def _compute(self, idx):
        g = torch.Generator().manual_seed(idx)
        time.sleep(0.002)  # stands in for decoding / feature extraction
        return torch.randn(32, generator=g)

    def get(self, idx):
        with self.lock:
            if idx not in self.store:
                self.store[idx] = self._compute(idx)
            return self.store[idx]

    def warm(self):
        # fill the cache in chunks, holding the lock per chunk to keep the dict consistent
        for start in range(0, self.n, 256):
            with self.lock:
                for idx in range(start, min(start + 256, self.n)):
                    if idx not in self.store:
                        self.store[idx] = self._compute(idx)


class CachedDataset(Dataset):
    def __init__(self, cache):
        self.cache = cache

    def __len__(self):
        return self.cache.n

    def __getitem__(self, idx):
        x = self.cache.get(idx)
        return x, int(x[0] > 0)


def main():
    cache = FeatureCache(4096)
    threading.Thread(target=cache.warm, daemon=True).start()

    loader = DataLoader(CachedDataset(cache), batch_size=64, shuffle=True,
                        num_workers=2, timeout=20)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    print(f"starting training: {len(loader)} steps/epoch, num_workers=2", flush=True)
    for step, (xb, yb) in enumerate(loader):
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
