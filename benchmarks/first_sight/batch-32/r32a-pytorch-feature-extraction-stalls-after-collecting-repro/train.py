"""Extract log-mel-like features for the keyword-spotting clips with a process pool, then train."""
import multiprocessing as mp
import time

import numpy as np
import torch
import torch.nn as nn

N_CLIPS, N_WORKERS, N_CLASSES = 4000, 4, 8


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def featurize(clip_id):
    rng = np.random.default_rng(clip_id)
    label = clip_id % N_CLASSES
    t = np.arange(16000) / 16000.0
    wav = np.sin(2 * np.pi * (200 + 90 * label) * t) + 0.8 * rng.standard_normal(16000)
    frames = wav[: 100 * 160].reshape(100, 160)
    spec = np.abs(np.fft.rfft(frames * np.hanning(160), axis=1))[:, :64]
    return clip_id, np.log1p(spec).astype(np.float32), label


def worker(wid, task_q, result_q):
    n = 0
    while True:
        clip_id = task_q.get()
        if clip_id is None:
            break
        result_q.put(featurize(clip_id))
        n += 1
    log(f"worker {wid} done after {n} clips")


def extract_all():
    task_q, result_q = mp.Queue(), mp.Queue()
    procs = [mp.Process(target=worker, args=(w, task_q, result_q)) for w in range(N_WORKERS)]
    for p in procs:
        p.start()
    for clip_id in range(N_CLIPS):
        task_q.put(clip_id)
    task_q.put(None)
    feats, labels = np.zeros((N_CLIPS, 100, 64), np.float32), np.zeros(N_CLIPS, np.int64)
    for i in range(N_CLIPS):
        cid, f, y = result_q.get()
        feats[cid], labels[cid] = f, y
        if (i + 1) % 1000 == 0:
            log(f"collected {i + 1}/{N_CLIPS} clips")
    log("waiting for feature workers to exit")
    for p in procs:
        p.join()
    return torch.from_numpy(feats), torch.from_numpy(labels)


def main():
    log(f"featurizing {N_CLIPS} clips with {N_WORKERS} workers")
    X, y = extract_all()
    log(f"features {tuple(X.shape)}; training")
    model = nn.Sequential(nn.Flatten(), nn.Linear(100 * 64, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 64):
            idx = perm[i:i + 64]
            loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad(); loss.backward(); opt.step()
        acc = (model(X).argmax(1) == y).float().mean().item()
        log(f"epoch {epoch} loss {loss.item():.4f} train_acc {acc:.3f}")


if __name__ == "__main__":
    main()
