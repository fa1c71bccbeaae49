"""1D-CNN beat classifier (N / S / V / F) - ported from the 2021 arrhythmia repo."""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CLASSES = ["N", "S", "V", "F"]
BEAT_LEN = 187
EPOCHS = 4
BATCH = 128
torch.manual_seed(0)


def synth_beats(n, seed):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, BEAT_LEN)
    y = rng.choice(4, size=n, p=[0.6, 0.15, 0.15, 0.1])
    centre = np.array([0.35, 0.28, 0.42, 0.5])[y][:, None]
    width = np.array([0.02, 0.02, 0.06, 0.04])[y][:, None]
    x = np.exp(-((t[None, :] - centre) ** 2) / (2 * width ** 2))
    x += 0.25 * np.sin(2 * np.pi * (3 + y[:, None]) * t[None, :]) * (y[:, None] > 1)
    x += rng.normal(0, 0.15, size=x.shape)
    return x.astype(np.float32), y.astype(np.int64)


class BeatCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(16, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.conv(x.unsqueeze(1)).squeeze(-1))


def confusion_matrix(y_true, y_pred, k):
    cm = np.zeros((k, k), dtype=np.int)
    for t, p in zip(y_true, y_pred):
        cm[t, p] += 1
    return cm


def report(cm):
    recall = cm.diagonal() / np.maximum(cm.sum(1), 1)
    precision = cm.diagonal() / np.maximum(cm.sum(0), 1)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-9)
    return cm.diagonal().sum() / cm.sum(), f1


def main():
    xtr, ytr = synth_beats(16000, 1)
    xva, yva = synth_beats(4000, 2)
    train_loader = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)), batch_size=BATCH, shuffle=True)
    val_loader = DataLoader(TensorDataset(torch.from_numpy(xva), torch.from_numpy(yva)), batch_size=512)
    print(f"train {len(xtr)} beats, val {len(xva)} beats, torch {torch.__version__}, numpy {np.__version__}")

    model = BeatCNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(1, EPOCHS + 1):
        model.train()
        t0, total = time.time(), 0.0
        for i, (xb, yb) in enumerate(train_loader):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            if i % 40 == 0:
                print(f"epoch {epoch} step {i}/{len(train_loader)} loss {loss.item():.4f}", flush=True)
        print(f"epoch {epoch} train_loss {total / len(train_loader):.4f} ({time.time() - t0:.1f}s)", flush=True)

        model.eval()
        preds = []
        with torch.no_grad():
            for xb, _ in val_loader:
                preds.append(model(xb).argmax(1).numpy())
        cm = confusion_matrix(yva, np.concatenate(preds), len(CLASSES))
        acc, f1 = report(cm)
        print(f"epoch {epoch} val_acc {acc:.4f} f1 " + " ".join(f"{c}={v:.3f}" for c, v in zip(CLASSES, f1)))
        torch.save(model.state_dict(), f"beatcnn_e{epoch}.pt")


if __name__ == "__main__":
    main()
