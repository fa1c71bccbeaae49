"""Machine-sound classifier: log-mel-ish features extracted in parallel, then a small CNN."""
import math
import multiprocessing as mp
import os
import time
import numpy as np
import torch
import torch.nn as nn

SR = 8000
CLIP_SEC = 1.0
N_FFT = 256
HOP = 128
CLASSES = ["idle", "normal_load", "bearing_whine", "knock"]
N_CLIPS = 1600
WORKERS = 4
EPOCHS = 4


class ClipDecodeError(Exception):
    def __init__(self, clip_id, reason):
        super().__init__(f"clip {clip_id}: {reason}")
        self.clip_id = clip_id
        self.reason = reason


def synth_clip(clip_id):
    """Stand-in for reading the wav file of one recording."""
    rng = np.random.default_rng(clip_id)
    label = clip_id % len(CLASSES)
    t = np.arange(int(SR * CLIP_SEC)) / SR
    base = 0.1 * rng.normal(size=t.size)
    if label == 1:
        base += 0.5 * np.sin(2 * math.pi * 120 * t)
    elif label == 2:
        base += 0.3 * np.sin(2 * math.pi * (2200 + 50 * rng.normal()) * t)
    elif label == 3:
        for k in rng.integers(0, t.size - 200, size=6):
            base[k:k + 200] += np.hanning(200) * 2.0
    if clip_id == 1337:
        base = base[:0]
    return base.astype(np.float32), label


def extract(clip_id):
    torch.set_num_threads(1)
    wav, label = synth_clip(clip_id)
    if wav.size < N_FFT:
        raise ClipDecodeError(clip_id, f"only {wav.size} samples")
    spec = torch.stft(torch.from_numpy(wav), n_fft=N_FFT, hop_length=HOP,
                      window=torch.hann_window(N_FFT), return_complex=True).abs()
    feats = torch.log1p(spec[:64 * 2:2])          # 64 coarse frequency bands
    return feats.numpy(), label


class SoundCNN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


def main():
    t0 = time.time()
    print(f"extracting features for {N_CLIPS} clips with {WORKERS} workers", flush=True)
    with mp.Pool(WORKERS) as pool:
        results = pool.map(extract, range(N_CLIPS), chunksize=16)
    X = torch.from_numpy(np.stack([r[0] for r in results])).unsqueeze(1)
    y = torch.tensor([r[1] for r in results])
    print(f"features {tuple(X.shape)} in {time.time() - t0:.1f}s", flush=True)

    torch.manual_seed(0)
    perm = torch.randperm(len(y))
    tr, va = perm[:1400], perm[1400:]
    model = SoundCNN(len(CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(EPOCHS):
        model.train()
        for i in range(0, len(tr), 64):
            idx = tr[i:i + 64]
            loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(X[va]).argmax(1) == y[va]).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.3f}", flush=True)


if __name__ == "__main__":
    main()
