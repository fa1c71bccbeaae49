"""Product-photo classifier (12 categories), plain PyTorch.

The catalogue manifest (one record per photo, exported from the PIM system) is loaded once;
photos are decoded on the fly in the DataLoader workers.
"""
import argparse
import gc
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_CLASSES = 12


def load_manifest(n_records=400_000, seed=0):
    """Stands in for json.load(open('manifest.json')): a list of dicts, one per photo."""
    rng = np.random.default_rng(seed)
    cats = rng.integers(0, N_CLASSES, size=n_records)
    return [
        {"sku": f"SKU{i:07d}", "path": f"photos/{i % 997:03d}/{i}.jpg", "category": int(c),
         "tags": ["catalogue", "2024"], "bbox": [0, 0, 32, 32]}
        for i, c in enumerate(cats)
    ]


class ProductPhotos(Dataset):
    def __init__(self, records):
        self.records = records

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        rec = self.records[i]
        # "decode" the photo: deterministic synthetic 3x32x32 thumbnail with a class-dependent pattern
        g = np.random.default_rng(i)
        img = g.random((3, 32, 32), dtype=np.float32) * 0.5
        c = rec["category"]
        img[c % 3, (c * 5) % 32:(c * 5) % 32 + 4, :] += 0.5
        x = torch.from_numpy(img)
        return (x - 0.5) / 0.25, c


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.c3 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.relu(self.c3(x))
        return self.fc(x.mean(dim=(2, 3)))


def free_memory():
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-steps", type=int, default=60)   # short timing run
    args = ap.parse_args()

    torch.manual_seed(0)
    t0 = time.time()
    records = load_manifest()
    print(f"manifest: {len(records):,} photos loaded in {time.time() - t0:.1f}s")
    loader = DataLoader(ProductPhotos(records), batch_size=args.batch_size, shuffle=True,
                        num_workers=args.workers, persistent_workers=True)
    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"{args.workers} workers, batch {args.batch_size}")

    model.train()
    t_last, seen, data_time = time.time(), 0, 0.0
    t_fetch = time.time()
    for step, (x, y) in enumerate(loader, 1):
        data_time += time.time() - t_fetch
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        free_memory()
        seen += len(y)
        if step % 10 == 0:
            dt = time.time() - t_last
            print(f"step {step:4d}  loss {loss.item():.3f}  {seen / dt:6.1f} img/s  "
                  f"(waiting for data {data_time / dt:.0%} of the time)", flush=True)
            t_last, seen, data_time = time.time(), 0, 0.0
        if step >= args.max_steps:
            break
        t_fetch = time.time()


if __name__ == "__main__":
    main()
