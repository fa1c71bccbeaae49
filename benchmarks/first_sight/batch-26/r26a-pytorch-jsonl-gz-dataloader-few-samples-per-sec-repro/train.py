"""Click-through model trained from the daily event export (JSON lines, gzip-compressed).

The export is too big to parse into Python objects up front, so EventDataset builds a
line-offset index once and reads single records on demand.
"""
import gzip
import json
import os
import random
import time
import zlib

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

DATA = os.path.join(os.environ.get("DATA_DIR", "data"), "events-2024-05-14.jsonl.gz")
N_EVENTS = 30000
N_DENSE = 24
N_HASH = 2 ** 14
BATCH = 64
NUM_WORKERS = 2
MAX_STEPS = 60          # smoke test before launching the full run
LOG_EVERY = 10


def write_export(path, n):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rnd = random.Random(0)
    with gzip.open(path, "wt") as f:
        for i in range(n):
            dense = [round(rnd.gauss(0, 1), 4) for _ in range(N_DENSE)]
            cats = [f"site_{rnd.randint(0, 300)}", f"app_{rnd.randint(0, 900)}", f"dev_{rnd.randint(0, 50)}"]
            score = 0.8 * dense[0] - 0.5 * dense[3] + (0.7 if cats[0].endswith("7") else 0.0)
            rec = {"event_id": f"ev-{i:08d}", "ts": 1715644800 + i, "dense": dense, "cats": cats,
                   "clicked": int(score + rnd.gauss(0, 0.5) > 0.6)}
            f.write(json.dumps(rec) + "\n")


class EventDataset(Dataset):
    def __init__(self, path):
        self.path = path
        self.offsets = []
        with gzip.open(path, "rb") as f:
            while True:
                pos = f.tell()
                line = f.readline()
                if not line:
                    break
                self.offsets.append(pos)
        self._fh = None

    def __len__(self):
        return len(self.offsets)

    def _file(self):
        if self._fh is None:               # opened lazily so every worker gets its own handle
            self._fh = gzip.open(self.path, "rb")
        return self._fh

    def __getitem__(self, idx):
        fh = self._file()
        fh.seek(self.offsets[idx])
        rec = json.loads(fh.readline())
        dense = torch.tensor(rec["dense"], dtype=torch.float32)
        cats = torch.tensor([zlib.crc32(c.encode()) % N_HASH for c in rec["cats"]], dtype=torch.long)
        return dense, cats, torch.tensor(float(rec["clicked"]))


class CTRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(N_HASH, 16, mode="sum")
        self.mlp = nn.Sequential(nn.Linear(N_DENSE + 16, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, dense, cats):
        return self.mlp(torch.cat([dense, self.emb(cats)], dim=1)).squeeze(1)


def main():
    torch.manual_seed(0)
    if not os.path.exists(DATA):
        t = time.time()
        write_export(DATA, N_EVENTS)
        print(f"wrote {DATA} ({os.path.getsize(DATA) / 1e6:.1f} MB) in {time.time() - t:.1f}s", flush=True)
    t = time.time()
    ds = EventDataset(DATA)
    print(f"indexed {len(ds)} events in {time.time() - t:.1f}s", flush=True)

    loader = DataLoader(ds, batch_size=BATCH, shuffle=True, num_workers=NUM_WORKERS, persistent_workers=True)
    model = CTRModel()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.BCEWithLogitsLoss()

    step, seen, data_time, compute_time = 0, 0, 0.0, 0.0
    t_window = t_last = time.time()
    for dense, cats, y in loader:
        t_got = time.time()
        data_time += t_got - t_last
        loss = loss_fn(model(dense, cats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        t_last = time.time()
        compute_time += t_last - t_got
        step += 1
        seen += len(y)
        if step % LOG_EVERY == 0:
            el = time.time() - t_window
            print(f"step {step:4d} loss {loss.item():.4f} | {seen / el:7.1f} samples/s | "
                  f"data {data_time:6.2f}s compute {compute_time:5.2f}s", flush=True)
            t_window, seen, data_time, compute_time = time.time(), 0, 0.0, 0.0
        if step >= MAX_STEPS:
            break
    print(f"smoke test finished: {step} steps")


if __name__ == "__main__":
    main()
