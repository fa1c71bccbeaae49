import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# Synthetic ECG-like 1-D signals, 5 rhythm classes
N, L, C = 6000, 128, 5
t = torch.linspace(0, 1, L)
freqs = torch.tensor([3.0, 5.0, 7.0, 9.0, 11.0])
y = torch.randint(0, C, (N,))
phase = torch.rand(N, 1) * 6.28
x = torch.sin(2 * 3.1416 * freqs[y][:, None] * t[None] + phase) + 0.5 * torch.randn(N, L)
x = x.unsqueeze(1)

train_dl = DataLoader(TensorDataset(x[:5000], y[:5000]), batch_size=64, shuffle=True)
val_x, val_y = x[5000:], y[5000:]


class RhythmCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 16, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(64, C)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


model = RhythmCNN()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def train_one_epoch(epoch):
    model.train()
    running, correct, seen = 0.0, 0, 0
    for i, (xb, yb) in enumerate(train_dl):
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * len(yb)
        correct += (out.argmax(1) == yb).sum().item()
        seen += len(yb)
        if i % 20 == 0:
            gnorm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
            print(f"epoch {epoch} iter {i:2d} loss {loss.item():10.4f} grad_norm {gnorm.item():10.2f}")
    return running / seen, correct / seen


for epoch in range(6):
    t0 = time.time()
    tr_loss, tr_acc = train_one_epoch(epoch)
    model.eval()
    with torch.no_grad():
        va_out = model(val_x)
        va_loss = F.cross_entropy(va_out, val_y).item()
        va_acc = (va_out.argmax(1) == val_y).float().mean().item()
    print(f"== epoch {epoch} train_loss {tr_loss:.4f} train_acc {tr_acc:.3f} val_loss {va_loss:.4f} val_acc {va_acc:.3f} ({time.time() - t0:.1f}s)")
