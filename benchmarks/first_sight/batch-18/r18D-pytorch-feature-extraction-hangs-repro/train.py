import multiprocessing as mp
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_CLIPS, N_WORKERS, N_MELS, FRAMES = 2000, 4, 40, 100


def synth_clip(idx):
    rng = np.random.default_rng(idx)
    label = idx % 4
    t = np.arange(16000) / 16000.0
    wav = np.sin(2 * np.pi * (200 + 150 * label) * t) + 0.5 * rng.standard_normal(16000)
    return wav.astype(np.float32), label


def log_mel(wav):
    frames = wav[: FRAMES * 160].reshape(FRAMES, 160)
    spec = np.abs(np.fft.rfft(frames * np.hanning(160), axis=1)) ** 2
    bands = np.array_split(spec, N_MELS, axis=1)
    return np.log(np.stack([b.mean(1) for b in bands], axis=0) + 1e-6).astype(np.float32)


def worker(shard, out_q):
    for idx in shard:
        wav, label = synth_clip(idx)
        out_q.put((idx, log_mel(wav), label))


def extract_features():
    out_q = mp.Queue()
    shards = np.array_split(np.arange(N_CLIPS), N_WORKERS)
    procs = [mp.Process(target=worker, args=(s, out_q)) for s in shards]
    for p in procs:
        p.start()
    print(f"started {N_WORKERS} feature workers for {N_CLIPS} clips", flush=True)
    for p in procs:
        p.join()
    print("all workers finished, collecting results", flush=True)
    feats = np.zeros((N_CLIPS, N_MELS, FRAMES), np.float32)
    labels = np.zeros(N_CLIPS, np.int64)
    for _ in range(N_CLIPS):
        idx, f, y = out_q.get()
        feats[idx], labels[idx] = f, y
    return feats, labels


def main():
    t0 = time.time()
    feats, labels = extract_features()
    print(f"features {feats.shape} in {time.time()-t0:.1f}s", flush=True)
    x = torch.from_numpy(feats)
    x = (x - x.mean()) / x.std()
    ds = TensorDataset(x, torch.from_numpy(labels))
    dl = DataLoader(ds, batch_size=64, shuffle=True)
    model = nn.Sequential(
        nn.Conv1d(N_MELS, 64, 5, padding=2), nn.ReLU(),
        nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(64, 4),
    )
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        correct = 0
        for xb, yb in dl:
            logits = model(xb)
            loss = nn.functional.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == yb).sum().item()
        print(f"epoch {epoch} | loss {loss.item():.4f} | train_acc {correct/len(ds):.4f}", flush=True)


if __name__ == "__main__":
    main()
