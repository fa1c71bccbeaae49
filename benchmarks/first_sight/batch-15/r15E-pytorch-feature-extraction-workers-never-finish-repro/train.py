import multiprocessing as mp
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_SHARDS = 4
SAMPLES_PER_SHARD = 5000
SIGNAL_LEN = 1024
N_MELS = 40


def make_shard(seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 4, SAMPLES_PER_SHARD)
    t = np.arange(SIGNAL_LEN) / SIGNAL_LEN
    freqs = np.array([5.0, 11.0, 23.0, 37.0])[labels]
    sig = np.sin(2 * np.pi * freqs[:, None] * t[None, :] * 8)
    sig += rng.normal(scale=0.8, size=sig.shape)
    return sig.astype(np.float32), labels


def extract_features(sig):
    frames = torch.from_numpy(sig).unfold(1, 128, 64)
    spec = torch.fft.rfft(frames * torch.hann_window(128), dim=-1).abs()
    bins = torch.linspace(0, spec.shape[-1], N_MELS + 1).long()
    mel = torch.stack([spec[..., a:b].mean(-1) for a, b in zip(bins[:-1], bins[1:])], -1)
    return torch.log1p(mel)


def feature_worker(shard_id, out_q):
    torch.set_num_threads(1)
    sig, labels = make_shard(shard_id)
    feats = extract_features(sig)
    out_q.put((shard_id, feats.numpy(), labels))
    print(f"  worker {shard_id}: {tuple(feats.shape)} features ready", flush=True)


def build_features():
    out_q = mp.Queue()
    procs = [mp.Process(target=feature_worker, args=(i, out_q)) for i in range(N_SHARDS)]
    for p in procs:
        p.start()
    print(f"started {N_SHARDS} feature workers, waiting for them to finish...", flush=True)
    for p in procs:
        p.join()
    print("all workers finished, collecting results", flush=True)
    results = sorted(out_q.get() for _ in range(N_SHARDS))
    x = torch.from_numpy(np.concatenate([r[1] for r in results]))
    y = torch.from_numpy(np.concatenate([r[2] for r in results]))
    return x, y


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(N_MELS, 64, batch_first=True)
        self.out = nn.Linear(64, 4)

    def forward(self, x):
        _, h = self.rnn(x)
        return self.out(h[-1])


def main():
    t0 = time.time()
    x, y = build_features()
    print(f"features {tuple(x.shape)} in {time.time()-t0:.1f}s", flush=True)
    ds = TensorDataset(x, y)
    loader = DataLoader(ds, batch_size=128, shuffle=True)
    model = Classifier()
    optim = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(2):
        tot = 0.0
        for xb, yb in loader:
            loss = nn.functional.cross_entropy(model(xb), yb)
            optim.zero_grad()
            loss.backward()
            optim.step()
            tot += loss.item() * len(xb)
        print(f"epoch {epoch} loss {tot/len(ds):.4f}", flush=True)


if __name__ == "__main__":
    mp.set_start_method("spawn")
    main()
