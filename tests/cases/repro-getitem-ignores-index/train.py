"""Sensor-window classifier: a Dataset that slices windows out of one long recording."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class WindowDataset(Dataset):
    def __init__(self, signal, labels, window=32):
        self.windows = signal.unfold(0, window, window)
        self.labels = labels
        self.cursor = 0

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        item = self.windows[self.cursor], self.labels[self.cursor]
        return item


labels = torch.randint(0, 3, (600,))
signal = (labels.repeat_interleave(32).float() - 1) + 0.5 * torch.randn(600 * 32)
train = WindowDataset(signal[: 500 * 32], labels[:500])
val = WindowDataset(signal[500 * 32 :], labels[500:])
model = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(5):
    for xb, yb in DataLoader(train, batch_size=50, shuffle=True):
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        xv, yv = val.windows, val.labels
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    print(f"epoch {epoch + 1} train_loss {loss.item():.4f} val_acc {acc:.3f}")
