"""Sleep-stage classifier: 30-second EEG epochs cut from overnight recordings."""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_RECORDINGS = 100
N_CHANNELS = 24
FS = 100                      # Hz
REC_SECONDS = 60 * 60         # first hour of each (downsampled) recording
WIN = 30 * FS                 # one 30 s scoring epoch
WINDOWS_PER_REC = 8
N_STAGES = 5


def load_recording(rec_id):
    """Stand-in for reading one EDF file: (channels, samples) float32 plus stage labels."""
    rng = np.random.default_rng(rec_id)
    sig = rng.standard_normal((N_CHANNELS, REC_SECONDS * FS), dtype=np.float32)
    n_epochs = REC_SECONDS * FS // WIN
    stages = rng.integers(0, N_STAGES, size=n_epochs)
    # give every stage a characteristic amplitude so the task is learnable
    for e, s in enumerate(stages):
        sig[:, e * WIN:(e + 1) * WIN] *= 0.5 + 0.4 * s
    return torch.from_numpy(sig), stages


class SleepEpochs(Dataset):
    def __init__(self, rec_ids):
        self.windows, self.labels = [], []
        t0 = time.time()
        for k, rec_id in enumerate(rec_ids):
            sig, stages = load_recording(rec_id)
            # per-recording z-scoring
            sig = (sig - sig.mean(dim=1, keepdim=True)) / sig.std(dim=1, keepdim=True)
            rng = np.random.default_rng(1000 + rec_id)
            for e in rng.choice(len(stages), size=WINDOWS_PER_REC, replace=False):
                self.windows.append(sig[:, e * WIN:(e + 1) * WIN])
                self.labels.append(int(stages[e]))
            if (k + 1) % 10 == 0:
                mb = len(self.windows) * N_CHANNELS * WIN * 4 / 2**20
                print(f"  loaded {k + 1}/{len(rec_ids)} recordings, {len(self.windows)} windows "
                      f"({mb:.0f} MB of window data), {time.time() - t0:.1f}s", flush=True)

    def __len__(self):
        return len(self.windows)

    def __getitem__(self, i):
        return self.windows[i], self.labels[i]


class SleepCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_CHANNELS, 32, 25, stride=5), nn.ReLU(),
            nn.Conv1d(32, 32, 9, stride=3), nn.ReLU(),
            nn.AdaptiveAvgPool1d(8),
        )
        self.fc = nn.Linear(32 * 8, N_STAGES)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


def main():
    torch.manual_seed(0)
    print("building training set ...", flush=True)
    train_ds = SleepEpochs(range(N_RECORDINGS))
    loader = DataLoader(train_ds, batch_size=64, shuffle=True)
    model = SleepCNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        correct = total = 0
        for x, y in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
            total += len(y)
        print(f"epoch {epoch}: loss {loss.item():.4f} train acc {correct / total:.3f}", flush=True)


if __name__ == "__main__":
    main()
