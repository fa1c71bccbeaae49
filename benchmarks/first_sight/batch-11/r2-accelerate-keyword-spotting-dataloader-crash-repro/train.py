"""Keyword spotting: small 1D-CNN over MFCC frames, trained with Accelerate."""
import math
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset

KEYWORDS = ["yes", "no", "up", "down", "left", "right", "stop", "go"]
N_MFCC = 40
SAMPLE_RATE = 16000
HOP = 160  # 10 ms hop


def fake_recording(label, rng):
    """Stand-in for the wav files: clips are trimmed by VAD, so durations vary."""
    dur = rng.uniform(0.6, 1.4)  # seconds
    n = int(dur * SAMPLE_RATE)
    t = np.arange(n) / SAMPLE_RATE
    f0 = 200 + 60 * label
    wav = np.sin(2 * math.pi * f0 * t) + 0.3 * rng.standard_normal(n)
    return wav.astype(np.float32)


def mfcc(wav):
    """Cheap MFCC-like features: framed log-energy in N_MFCC bands, shape (frames, N_MFCC)."""
    frames = torch.from_numpy(wav).unfold(0, 400, HOP)  # 25 ms window
    spec = torch.fft.rfft(frames * torch.hann_window(400), dim=-1).abs() ** 2
    bands = spec[:, :200].reshape(spec.shape[0], N_MFCC, -1).sum(-1)
    feats = torch.log(bands + 1e-6)
    return (feats - feats.mean(0)) / (feats.std(0) + 1e-5)


class SpeechCommands(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            label = int(rng.integers(len(KEYWORDS)))
            self.items.append((fake_recording(label, rng), label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        wav, label = self.items[idx]
        return mfcc(wav), torch.tensor(label)


class KWSNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.conv1 = nn.Conv1d(N_MFCC, 64, 5, padding=2)
        self.conv2 = nn.Conv1d(64, 64, 5, padding=2)
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):  # x: (B, T, N_MFCC)
        x = x.transpose(1, 2)
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = x.mean(-1)  # global average pool over time
        return self.fc(x)


def main():
    accelerator = Accelerator(cpu=True)
    torch.manual_seed(0)
    random.seed(0)
    train_ds = SpeechCommands(800, seed=1)
    val_ds = SpeechCommands(200, seed=2)
    accelerator.print(f"train clips: {len(train_ds)}  val clips: {len(val_ds)}")
    x0, y0 = train_ds[0]
    accelerator.print(f"example features: {tuple(x0.shape)} label={KEYWORDS[y0]}")

    train_dl = DataLoader(train_ds, batch_size=32, shuffle=True, num_workers=2)
    val_dl = DataLoader(val_ds, batch_size=64, num_workers=2)

    model = KWSNet(len(KEYWORDS))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)

    for epoch in range(5):
        model.train()
        total = 0.0
        for step, (x, y) in enumerate(train_dl):
            loss = F.cross_entropy(model(x), y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
            total += loss.item()
        model.eval()
        correct = n = 0
        with torch.no_grad():
            for x, y in val_dl:
                pred = model(x).argmax(-1)
                correct += (pred == y).sum().item()
                n += y.numel()
        accelerator.print(f"epoch {epoch} train_loss {total / (step + 1):.4f} val_acc {correct / n:.3f}")


if __name__ == "__main__":
    main()
