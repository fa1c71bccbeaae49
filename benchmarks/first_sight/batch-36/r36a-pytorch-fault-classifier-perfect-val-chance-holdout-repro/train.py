"""Bearing-fault classifier on vibration features.

Input: the labelled export (one JSON record per measurement, the data team
already assigned the split column) plus the hold-out plant for the final check.
"""
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader, Subset

torch.manual_seed(0)
FAULTS = ["normal", "inner_race", "outer_race", "ball", "cage"]
N_FEAT = 40


def write_export(path, n, seed, with_split=True):
    """Synthetic stand-in for the historian export."""
    rng = np.random.default_rng(seed)
    centers = np.random.default_rng(123).normal(0, 1.0, size=(len(FAULTS), N_FEAT))
    with open(path, "w") as fh:
        for i in range(n):
            y = int(rng.integers(len(FAULTS)))
            x = centers[y] + rng.normal(0, 1.2, N_FEAT)
            rec = {"id": f"m{seed}-{i:06d}", "features": x.round(4).tolist(), "fault": FAULTS[y]}
            if with_split:
                rec["split"] = "train" if rng.random() < 0.8 else "val"
            fh.write(json.dumps(rec) + "\n")


class VibrationRecords(Dataset):
    def __init__(self, path):
        with open(path) as fh:
            self.records = [json.loads(line) for line in fh]
        feats = np.array([r["features"] for r in self.records], dtype=np.float32)
        self.mean, self.std = feats.mean(0), feats.std(0) + 1e-6

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        r = self.records[i]
        x = (np.asarray(r["features"], dtype=np.float32) - self.mean) / self.std
        return torch.from_numpy(x), FAULTS.index(r["fault"])


def accuracy(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    if not os.path.exists("labelled.jsonl"):
        write_export("labelled.jsonl", 12_000, seed=1)
        write_export("holdout_plant_b.jsonl", 3_000, seed=2, with_split=False)

    ds = VibrationRecords("labelled.jsonl")
    print(f"loaded {len(ds.records)} labelled measurements")
    is_train = [r["split"] == "train" for r in ds.records]
    is_val = [r["split"] == "val" for r in ds.records]
    train_ds, val_ds = Subset(ds, is_train), Subset(ds, is_val)

    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = nn.Sequential(nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Dropout(0.2),
                          nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, len(FAULTS)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    t0 = time.time()
    for epoch in range(5):
        model.train()
        tot, n = 0.0, 0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y); n += len(y)
        print(f"epoch {epoch} train_loss {tot / n:.4f} val_acc {accuracy(model, val_dl):.4f} "
              f"({time.time() - t0:.0f}s)", flush=True)

    # final check on the other plant, normalised with the training statistics
    hold = VibrationRecords("holdout_plant_b.jsonl")
    hold.mean, hold.std = ds.mean, ds.std
    print(f"hold-out plant B accuracy: {accuracy(model, DataLoader(hold, batch_size=512)):.4f}")
    torch.save(model.state_dict(), "bearing_fault_mlp.pt")


if __name__ == "__main__":
    main()
