"""Keyword-spotting head on frozen frame features.

Stage 1 (once): run the frozen conv front-end over every clip and cache the
per-clip feature maps under feature_cache/ (one .pt per clip, so the cache can
be reused by the other experiments).
Stage 2: load the cached features and train a small attention-pooling head.
"""
import os
import time
import glob

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

torch.manual_seed(0)
np.random.seed(0)

CACHE_DIR = "feature_cache"
N_CLIPS = 6000
N_CLASSES = 12
SAMPLE_RATE = 8000
CLIP_SAMPLES = 8000          # 1 s clips
EXTRACT_BATCH = 64
FEAT_DIM = 128
BATCH_SIZE = 64
EPOCHS = 3


def rss_mb():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return -1.0


def synth_clips(n):
    """Stand-in for the decoded wav files: a class-dependent tone + noise."""
    labels = np.random.randint(0, N_CLASSES, size=n)
    t = np.arange(CLIP_SAMPLES) / SAMPLE_RATE
    freqs = 200 + 90 * labels
    clips = np.sin(2 * np.pi * freqs[:, None] * t[None, :]) + 0.5 * np.random.randn(n, CLIP_SAMPLES)
    return clips.astype(np.float32), labels


class FrontEnd(nn.Module):
    """Frozen conv front-end (weights would normally come from the pretrained model)."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, 64, kernel_size=80, stride=16), nn.ReLU(),
            nn.Conv1d(64, FEAT_DIM, kernel_size=8, stride=16), nn.ReLU(),
        )

    def forward(self, wav):                      # (B, T)
        return self.net(wav.unsqueeze(1)).transpose(1, 2)   # (B, frames, FEAT_DIM)


@torch.no_grad()
def extract_features():
    os.makedirs(CACHE_DIR, exist_ok=True)
    clips, labels = synth_clips(N_CLIPS)
    front = FrontEnd().eval()
    t0 = time.time()
    for start in range(0, N_CLIPS, EXTRACT_BATCH):
        wav = torch.from_numpy(clips[start:start + EXTRACT_BATCH])
        feats = front(wav)
        for j in range(feats.shape[0]):
            idx = start + j
            torch.save({"feats": feats[j], "label": int(labels[idx])},
                       os.path.join(CACHE_DIR, f"clip_{idx:05d}.pt"))
    print(f"extracted {N_CLIPS} clips -> {CACHE_DIR}/ in {time.time() - t0:.1f}s, "
          f"feature map per clip {tuple(feats.shape[1:])}", flush=True)


class CachedFeatures(Dataset):
    """Keeps all cached clips in RAM so training does no disk I/O."""

    def __init__(self, cache_dir):
        self.items = []
        files = sorted(glob.glob(os.path.join(cache_dir, "clip_*.pt")))
        for i, path in enumerate(files):
            rec = torch.load(path)
            self.items.append((rec["feats"], rec["label"]))
            if (i + 1) % 500 == 0:
                print(f"  loaded {i + 1}/{len(files)} clips, rss={rss_mb():.0f} MB", flush=True)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class AttnPoolHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Linear(FEAT_DIM, 1)
        self.out = nn.Sequential(nn.Linear(FEAT_DIM, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))

    def forward(self, x):
        w = torch.softmax(self.score(x).squeeze(-1), dim=1)
        return self.out((w.unsqueeze(-1) * x).sum(1))


def main():
    if not os.path.isdir(CACHE_DIR):
        extract_features()
    print(f"loading feature cache, rss={rss_mb():.0f} MB", flush=True)
    ds = CachedFeatures(CACHE_DIR)
    n_val = len(ds) // 10
    train_ds, val_ds = torch.utils.data.random_split(ds, [len(ds) - n_val, n_val])
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = AttnPoolHead()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(EPOCHS):
        model.train()
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for x, y in val_dl:
                correct += (model(x).argmax(1) == y).sum().item()
                total += len(y)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {correct / total:.3f}", flush=True)


if __name__ == "__main__":
    main()
