"""Vibration fault classifier: parallel spectral featurization of sensor shards, then an MLP."""
import json
import logging
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(processName)s %(levelname)s %(message)s")
log = logging.getLogger("featurize")

SHARD_DIR = Path("data/vibration_shards")
SAMPLE_RATE, WIN, N_BANDS = 1000, 1000, 32


def fail(msg):
    log.error(msg)
    sys.exit(1)


def write_demo_shards(n_shards=8, per_shard=600, seed=0):
    """Stand-in for the export job: each shard holds 1 s windows from one line of machines."""
    rng = np.random.default_rng(seed)
    SHARD_DIR.mkdir(parents=True, exist_ok=True)
    t = np.arange(WIN) / SAMPLE_RATE
    for s in range(n_shards):
        y = rng.integers(0, 3, size=per_shard)
        freq = np.array([50.0, 120.0, 310.0])[y][:, None]
        x = np.sin(2 * np.pi * freq * t) + 0.8 * rng.standard_normal((per_shard, WIN))
        rate = 500 if s == 5 else SAMPLE_RATE
        meta = {"line": f"L{s:02d}", "sample_rate": rate, "schema": 2}
        np.savez(SHARD_DIR / f"shard_{s:02d}.npz", x=x.astype(np.float32), y=y, meta=json.dumps(meta))


def featurize(path):
    d = np.load(path)
    meta = json.loads(str(d["meta"]))
    if meta["sample_rate"] != SAMPLE_RATE:
        fail(f"{path.name}: sample_rate {meta['sample_rate']} != {SAMPLE_RATE}, shard must be resampled")
    spec = np.abs(np.fft.rfft(d["x"], axis=1)) ** 2
    bands = np.log1p(np.stack([b.sum(1) for b in np.array_split(spec, N_BANDS, axis=1)], axis=1))
    log.info(f"{path.name}: {len(bands)} windows featurized")
    return bands.astype(np.float32), d["y"]


def main():
    if not SHARD_DIR.exists():
        write_demo_shards()
    shards = sorted(SHARD_DIR.glob("shard_*.npz"))
    log.info(f"torch {torch.__version__}; featurizing {len(shards)} shards with 2 processes")
    t0 = time.time()
    with Pool(processes=2) as pool:
        parts = pool.map(featurize, shards)
    log.info(f"featurization done in {time.time() - t0:.1f}s")

    X = torch.from_numpy(np.concatenate([p[0] for p in parts]))
    y = torch.from_numpy(np.concatenate([p[1] for p in parts]))
    X = (X - X.mean(0)) / X.std(0)
    perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
    tr, va = perm[: int(0.8 * len(X))], perm[int(0.8 * len(X)):]
    model = nn.Sequential(nn.Linear(N_BANDS, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(20):
        for idx in tr[torch.randperm(len(tr))].split(128):
            loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 4:
            acc = (model(X[va]).argmax(1) == y[va]).float().mean().item()
            log.info(f"epoch {epoch + 1} loss {loss.item():.4f} val_acc {acc:.4f}")


if __name__ == "__main__":
    main()
