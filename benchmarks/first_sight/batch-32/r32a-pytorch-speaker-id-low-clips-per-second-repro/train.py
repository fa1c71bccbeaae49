"""Speaker-ID model on precomputed log-mel frames (variable length), padded per batch."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

N_MELS, N_SPK, BATCH = 64, 20, 128


class MelClips(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.spk = rng.integers(0, N_SPK, n)
        centers = np.random.default_rng(123).standard_normal((N_SPK, N_MELS)).astype(np.float32)
        self.clips = []
        for s in self.spk:
            T = int(rng.integers(60, 100))
            self.clips.append(centers[s] + 4.0 * rng.standard_normal((T, N_MELS)).astype(np.float32))

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        return self.clips[i], int(self.spk[i])


def pad_collate(batch):
    T = max(x.shape[0] for x, _ in batch)
    feats = [np.pad(x, ((0, T - x.shape[0]), (0, 0))) for x, _ in batch]
    lengths = torch.tensor([x.shape[0] for x, _ in batch])
    mask = torch.arange(T)[None, :] < lengths[:, None]
    return torch.tensor(feats), mask, torch.tensor([y for _, y in batch])


class SpeakerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 64, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(64, N_SPK)

    def forward(self, x, mask):
        h = self.conv(x.transpose(1, 2)).transpose(1, 2)
        h = (h * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return self.head(h)


def main():
    train_ds, val_ds = MelClips(6000, 0), MelClips(1000, 1)
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True, collate_fn=pad_collate)
    val_dl = DataLoader(val_ds, batch_size=256, collate_fn=pad_collate)
    model = SpeakerNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        model.train(); t0 = time.time(); seen = 0
        for x, mask, y in train_dl:
            loss = nn.functional.cross_entropy(model(x, mask), y)
            opt.zero_grad(); loss.backward(); opt.step()
            seen += len(y)
        dt = time.time() - t0
        model.eval(); correct = 0
        with torch.no_grad():
            for x, mask, y in val_dl:
                correct += (model(x, mask).argmax(1) == y).sum().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {correct / len(val_ds):.3f} "
              f"train {seen / dt:.0f} clips/s ({dt:.1f}s)", flush=True)


if __name__ == "__main__":
    main()
