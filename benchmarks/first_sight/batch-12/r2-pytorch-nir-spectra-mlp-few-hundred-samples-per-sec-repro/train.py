"""Classify polymer type from NIR spectra (JSON-lines export from the lab instrument)."""
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

DATA = "spectra.jsonl"
N_SAMPLES = 6000
N_BANDS = 2048
N_CLASSES = 6
BATCH = 128


def export_fake_instrument_data(path):
    rng = np.random.default_rng(0)
    centers = rng.uniform(200, 1800, size=(N_CLASSES, 3))
    bands = np.arange(N_BANDS)
    with open(path, "w") as f:
        for i in range(N_SAMPLES):
            c = int(rng.integers(N_CLASSES))
            spec = sum(np.exp(-((bands - mu) / 40.0) ** 2) for mu in centers[c])
            spec = spec + rng.normal(0, 1.5, N_BANDS)
            f.write(json.dumps({"id": f"S{i:05d}", "polymer": c,
                                "spectrum": np.round(spec, 4).tolist()}) + "\n")


class SpectraDataset(Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = [json.loads(line) for line in f]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        return row["spectrum"], row["polymer"]


class SpectraNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_BANDS, 256), nn.ReLU(), nn.Dropout(0.2),
                                 nn.Linear(256, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))

    def forward(self, x):
        return self.net(x)


def main():
    torch.manual_seed(0)
    if not os.path.exists(DATA):
        print("writing instrument export ...", flush=True)
        export_fake_instrument_data(DATA)
    ds = SpectraDataset(DATA)
    loader = DataLoader(ds, batch_size=BATCH, shuffle=True)
    model = SpectraNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"{len(ds)} spectra, {len(loader)} batches per epoch", flush=True)

    for epoch in range(2):
        t0 = time.time()
        seen, correct = 0, 0
        for step, (x, y) in enumerate(loader):
            x = torch.stack(x, dim=1).float()          # -> (batch, bands)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen += len(y)
            correct += (logits.argmax(1) == y).sum().item()
            if step % 10 == 0:
                print(f"  epoch {epoch} step {step:3d} loss {loss.item():.4f} "
                      f"{seen / (time.time() - t0):.0f} samples/s", flush=True)
        dt = time.time() - t0
        print(f"epoch {epoch}: acc {correct / seen:.3f}  {dt:.1f}s  ({seen / dt:.0f} samples/s)",
              flush=True)


if __name__ == "__main__":
    main()
