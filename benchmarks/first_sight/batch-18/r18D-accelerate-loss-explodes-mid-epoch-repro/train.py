import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

set_seed(0)
accelerator = Accelerator(cpu=True)

# ---- synthetic 1-D signal classification (e.g. sensor windows) ------------
N_CLASSES, LEN = 6, 128


def make_data(n):
    y = torch.randint(0, N_CLASSES, (n,))
    t = torch.linspace(0, 1, LEN)
    freq = (y.float() + 1.0) * 3.0
    x = torch.sin(2 * torch.pi * freq[:, None] * t[None, :] + torch.rand(n, 1) * 6.28)
    x = x + 0.3 * torch.randn(n, LEN)
    return TensorDataset(x.unsqueeze(1), y)


train_dl = DataLoader(make_data(6000), batch_size=64, shuffle=True)
val_dl = DataLoader(make_data(1200), batch_size=256)


class SignalCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(64, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


model = SignalCNN()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)


def evaluate():
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in val_dl:
            preds = model(x).argmax(-1)
            preds, y = accelerator.gather_for_metrics((preds, y))
            correct += (preds == y).sum().item()
            total += y.numel()
    model.train()
    return correct / total


accelerator.print(f"accelerate device={accelerator.device} | steps/epoch={len(train_dl)}")
global_step, t0 = 0, time.time()
for epoch in range(3):
    model.train()
    optimizer.zero_grad()
    for x, y in train_dl:
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        accelerator.backward(loss)
        optimizer.step()
        if global_step % 10 == 0:
            gn = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])).item()
            accelerator.print(f"epoch {epoch} step {global_step:4d} | loss {loss.item():10.4f} | grad_norm {gn:10.3f}")
        global_step += 1
    accelerator.print(f"==> epoch {epoch} done | val_acc {evaluate():.4f} | {time.time()-t0:.1f}s")
