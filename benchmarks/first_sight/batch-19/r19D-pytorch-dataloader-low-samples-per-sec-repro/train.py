"""Linear-probe / small MLP head on precomputed image embeddings stored as .npy."""
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

HERE = os.path.dirname(os.path.abspath(__file__))
EMB_PATH = os.path.join(HERE, "embeddings.npy")
LABEL_PATH = os.path.join(HERE, "labels.npy")
N, DIM, N_CLASSES = 24000, 256, 20
BATCH = 256
MAX_STEPS = 40
LOG_EVERY = 10


def ensure_cache():
    if os.path.exists(EMB_PATH):
        return
    rng = np.random.default_rng(0)
    labels = rng.integers(0, N_CLASSES, N)
    protos = rng.normal(size=(N_CLASSES, DIM)).astype(np.float32)
    emb = protos[labels] * 0.3 + rng.normal(size=(N, DIM)).astype(np.float32)
    np.save(EMB_PATH, emb)
    np.save(LABEL_PATH, labels)
    print(f"wrote embedding cache {emb.shape} ({os.path.getsize(EMB_PATH) / 2**20:.1f} MiB)")


class EmbeddingDataset(Dataset):
    def __init__(self, emb_path, label_path):
        self.emb_path = emb_path
        self.labels = np.load(label_path)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        emb = np.load(self.emb_path)[idx]
        emb = emb / (np.linalg.norm(emb) + 1e-6)
        return torch.from_numpy(emb.astype(np.float32)), int(self.labels[idx])


def main():
    torch.manual_seed(0)
    ensure_cache()
    ds = EmbeddingDataset(EMB_PATH, LABEL_PATH)
    dl = DataLoader(ds, batch_size=BATCH, shuffle=True, num_workers=2, persistent_workers=True)
    head = nn.Sequential(nn.Linear(DIM, 512), nn.ReLU(), nn.Linear(512, N_CLASSES))
    opt = torch.optim.AdamW(head.parameters(), lr=1e-3)
    print(f"dataset={len(ds)} batch={BATCH} workers=2 torch_threads={torch.get_num_threads()}")

    step, seen = 0, 0
    t0 = t_log = time.time()
    wait_total = 0.0
    t_fetch = time.time()
    for x, y in dl:
        wait_total += time.time() - t_fetch
        loss = F.cross_entropy(head(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        seen += len(y)
        if step % LOG_EVERY == 0:
            now = time.time()
            print(f"step {step:3d} loss {loss.item():.4f} "
                  f"{LOG_EVERY * BATCH / (now - t_log):8.1f} samples/s "
                  f"(data wait {100 * wait_total / (now - t0):.0f}% of wall)")
            t_log = now
        if step >= MAX_STEPS:
            break
        t_fetch = time.time()
    print(f"done: {seen} samples in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
