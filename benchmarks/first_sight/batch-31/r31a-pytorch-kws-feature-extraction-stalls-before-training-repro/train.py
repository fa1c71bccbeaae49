"""Keyword-spotting baseline: log-mel features computed in parallel, then a small CNN."""
import argparse
import logging
import multiprocessing as mp
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger("kws")

SR = 16000
N_FFT, HOP, N_MELS = 400, 160, 40
KEYWORDS = ["yes", "no", "up", "down", "left", "right", "stop", "go"]


def synth_clip(seed):
    rng = np.random.default_rng(seed)
    label = seed % len(KEYWORDS)
    t = np.arange(SR) / SR
    f0 = 200 + 90 * label
    wav = np.sin(2 * np.pi * f0 * t * (1 + 0.1 * rng.standard_normal()))
    wav *= np.exp(-((t - rng.uniform(0.3, 0.7)) ** 2) / 0.02)
    wav += 0.05 * rng.standard_normal(SR)
    return wav.astype(np.float32), label


def mel_filterbank():
    mel = lambda f: 2595 * np.log10(1 + f / 700)
    imel = lambda m: 700 * (10 ** (m / 2595) - 1)
    pts = imel(np.linspace(mel(0), mel(SR / 2), N_MELS + 2))
    bins = np.floor((N_FFT + 1) * pts / SR).astype(int)
    fb = np.zeros((N_MELS, N_FFT // 2 + 1), np.float32)
    for m in range(1, N_MELS + 1):
        l, c, r = bins[m - 1], bins[m], bins[m + 1]
        fb[m - 1, l:c] = (np.arange(l, c) - l) / max(c - l, 1)
        fb[m - 1, c:r] = (r - np.arange(c, r)) / max(r - c, 1)
    return fb


FB = mel_filterbank()


def featurize(seeds):
    out = []
    for s in seeds:
        wav, label = synth_clip(s)
        frames = np.lib.stride_tricks.sliding_window_view(wav, N_FFT)[::HOP] * np.hanning(N_FFT)
        power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
        logmel = np.log(power @ FB.T + 1e-6)
        out.append((logmel.astype(np.float32), label))
    return out


def extract(n_clips, workers, chunk):
    chunks = [list(range(i, min(i + chunk, n_clips))) for i in range(0, n_clips, chunk)]
    t0 = time.time()
    with mp.Pool(workers) as pool:
        pending = [pool.apply_async(featurize, (c,)) for c in chunks]
        log.info("submitted %d feature chunks to %d workers", len(pending), workers)
    feats = []
    for i, job in enumerate(pending):
        feats.extend(job.get())
        if i % 10 == 0:
            log.info("collected chunk %d/%d (%.1fs)", i + 1, len(pending), time.time() - t0)
    x = torch.from_numpy(np.stack([f for f, _ in feats]))
    y = torch.tensor([l for _, l in feats])
    return x, y


class KWSNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.head = nn.Linear(32 * (N_MELS // 2), n_classes)

    def forward(self, x):
        x = x.unsqueeze(1) / 5.0
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.head(x.mean(dim=2).flatten(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clips", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()

    x, y = extract(args.clips, args.workers, args.chunk)
    log.info("features %s", tuple(x.shape))
    n_val = len(x) // 10
    perm = torch.randperm(len(x), generator=torch.Generator().manual_seed(0))
    tr, va = perm[n_val:], perm[:n_val]

    model = KWSNet(len(KEYWORDS))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, len(tr), 64):
            idx = tr[i:i + 64]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(x[va]).argmax(1) == y[va]).float().mean().item()
        log.info("epoch %d loss %.4f val_acc %.3f", epoch, loss.item(), acc)


if __name__ == "__main__":
    main()
