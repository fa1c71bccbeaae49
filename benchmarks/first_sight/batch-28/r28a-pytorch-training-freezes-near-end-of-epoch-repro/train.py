"""Keyword-spotting GRU on variable-length MFCC sequences.

Sequences are batched by length bucket to keep padding (and CPU time) low.
"""
import random
import time
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, Sampler

random.seed(0)
torch.manual_seed(0)
N_MFCC, N_CLASSES = 20, 12


class Utterances(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, N_CLASSES, (n,), generator=g)
        self.lengths = torch.randint(30, 160, (n,), generator=g).tolist()
        self.protos = torch.randn(N_CLASSES, N_MFCC, generator=torch.Generator().manual_seed(99))
        self.seeds = torch.randint(0, 2**31, (n,), generator=g).tolist()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(self.seeds[i])
        T = self.lengths[i]
        x = self.protos[self.labels[i]] * torch.sin(torch.linspace(0, 3.14, T))[:, None]
        return x + 0.8 * torch.randn(T, N_MFCC, generator=g), self.labels[i]


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, bucket_width=10):
        self.batch_size = batch_size
        self.buckets = defaultdict(list)
        for i, L in enumerate(lengths):
            self.buckets[L // bucket_width].append(i)

    def __len__(self):
        return sum(len(b) for b in self.buckets.values()) // self.batch_size

    def __iter__(self):
        pools = {k: random.sample(v, len(v)) for k, v in self.buckets.items()}
        while any(pools.values()):
            k = random.choice([k for k, v in pools.items() if v])
            if len(pools[k]) >= self.batch_size:
                batch, pools[k] = pools[k][:self.batch_size], pools[k][self.batch_size:]
                yield batch


def collate(items):
    xs, ys = zip(*items)
    lens = torch.tensor([len(x) for x in xs])
    return pad_sequence(xs, batch_first=True), lens, torch.stack(ys)


class KWS(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(N_MFCC, 64, batch_first=True)
        self.out = nn.Linear(64, N_CLASSES)

    def forward(self, x, lens):
        packed = nn.utils.rnn.pack_padded_sequence(x, lens, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return self.out(h[-1])


train_ds = Utterances(6000, seed=1)
train_dl = DataLoader(train_ds, batch_sampler=BucketBatchSampler(train_ds.lengths, 32), collate_fn=collate)
model = KWS()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
print(f"{len(train_ds)} utterances, {len(train_dl)} batches per epoch", flush=True)

for epoch in range(1, 4):
    t0, total, correct, seen = time.time(), 0.0, 0, 0
    for step, (x, lens, y) in enumerate(train_dl, 1):
        logits = model(x, lens)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
        correct += (logits.argmax(1) == y).sum().item()
        seen += len(y)
        if step % 20 == 0:
            print(f"epoch {epoch} step {step:3d}/{len(train_dl)} loss {total / seen:.4f} "
                  f"acc {correct / seen:.4f} ({time.time() - t0:.1f}s)", flush=True)
    print(f"epoch {epoch} done: loss {total / seen:.4f} acc {correct / seen:.4f} "
          f"({time.time() - t0:.1f}s)", flush=True)
