import queue
import threading
import time

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

N_SAMPLES = 5000
BATCH_SIZE = 128
EPOCHS = 3

lines = []
for i in range(N_SAMPLES):
    feats = rng.normal(size=20)
    label = int(feats[:5].sum() > 0)
    lines.append(",".join(f"{v:.5f}" for v in feats) + f",{label}")
lines[3371] = ",".join(lines[3371].split(",")[:15] + ["", "", "", "", ""]) + ",1"

records = []
for line in lines:
    parts = line.split(",")
    feats = np.array([float(v) if v else np.nan for v in parts[:-1]], dtype=np.float32)
    records.append({"x": feats, "y": int(parts[-1])})


def load_batch(start):
    rows = records[start:start + BATCH_SIZE]
    xs = []
    for r in rows:
        x = r["x"]
        x = x[~np.isnan(x)]
        xs.append(x)
    x = torch.from_numpy(np.stack(xs))
    y = torch.tensor([r["y"] for r in rows])
    return x, y


class Prefetcher:
    def __init__(self, n_batches, depth=4):
        self.n_batches = n_batches
        self.q = queue.Queue(maxsize=depth)
        self.t = threading.Thread(target=self._worker, daemon=True)
        self.t.start()

    def _worker(self):
        for b in range(self.n_batches):
            self.q.put(load_batch(b * BATCH_SIZE))

    def __iter__(self):
        for _ in range(self.n_batches):
            yield self.q.get()


model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()

steps_per_epoch = -(-N_SAMPLES // BATCH_SIZE)
print(f"samples={N_SAMPLES} batch_size={BATCH_SIZE} steps/epoch={steps_per_epoch}", flush=True)

for epoch in range(EPOCHS):
    t0 = time.time()
    total, n = 0.0, 0
    for step, (x, y) in enumerate(Prefetcher(steps_per_epoch)):
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        n += 1
        if step % 10 == 0:
            print(f"epoch {epoch} step {step}/{steps_per_epoch} loss {loss.item():.4f}", flush=True)
    print(f"epoch {epoch} done: mean loss {total / n:.4f} ({time.time() - t0:.1f}s)", flush=True)

print("training finished")
