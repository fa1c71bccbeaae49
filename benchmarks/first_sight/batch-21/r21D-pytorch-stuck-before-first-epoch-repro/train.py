"""Audio-event classifier on log-mel style features.

Feature extraction is the slow part, so it is fanned out over worker processes first and the
resulting tensors are cached in memory before training.
"""
import multiprocessing as mp
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_CLIPS = 6000
N_WORKERS = 2
N_CLASSES = 5


def synth_clip(i):
    rng = np.random.default_rng(i)
    label = i % N_CLASSES
    t = np.arange(16000) / 16000.0
    wave = np.sin(2 * np.pi * (200 + 150 * label) * t) + 0.8 * rng.normal(size=t.size)
    return wave.astype(np.float32), label


def featurize(wave, n_fft=400, hop=160, n_bands=40):
    frames = np.lib.stride_tricks.sliding_window_view(wave, n_fft)[::hop]
    spec = np.abs(np.fft.rfft(frames * np.hanning(n_fft), axis=1)) ** 2
    bands = np.array_split(spec, n_bands, axis=1)
    mel = np.stack([b.mean(1) for b in bands], 1)
    return np.log(mel + 1e-6).astype(np.float32)          # (frames, n_bands)


def extract_worker(ids, out_q):
    feats, labels = [], []
    for i in ids:
        wave, y = synth_clip(i)
        feats.append(featurize(wave))
        labels.append(y)
    out_q.put((np.stack(feats), np.array(labels)))


def build_features():
    q = mp.Queue()
    chunks = np.array_split(np.arange(N_CLIPS), N_WORKERS)
    procs = [mp.Process(target=extract_worker, args=(c, q)) for c in chunks]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    results = [q.get() for _ in procs]
    X = np.concatenate([r[0] for r in results])
    y = np.concatenate([r[1] for r in results])
    return torch.from_numpy(X), torch.from_numpy(y)


class EventNet(nn.Module):
    def __init__(self, n_bands=40):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_bands, 64, 5, padding=2), nn.ReLU(),
            nn.Conv1d(64, 64, 5, padding=2), nn.ReLU(),
        )
        self.fc = nn.Linear(64, N_CLASSES)

    def forward(self, x):                      # x: (B, frames, bands)
        h = self.conv(x.transpose(1, 2))
        return self.fc(h.mean(-1))


if __name__ == "__main__":
    t0 = time.time()
    print(f"extracting features for {N_CLIPS} clips with {N_WORKERS} workers ...", flush=True)
    X, y = build_features()
    print(f"features {tuple(X.shape)} in {time.time() - t0:.1f}s", flush=True)
    X = (X - X.mean()) / X.std()
    ds = TensorDataset(X, y)
    tr, va = torch.utils.data.random_split(ds, [5000, 1000], generator=torch.Generator().manual_seed(0))
    train_dl = DataLoader(tr, batch_size=64, shuffle=True)
    val_dl = DataLoader(va, batch_size=256)
    model = EventNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        model.train()
        for xb, yb in train_dl:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = sum((model(xb).argmax(1) == yb).sum().item() for xb, yb in val_dl) / len(va)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.4f}", flush=True)
