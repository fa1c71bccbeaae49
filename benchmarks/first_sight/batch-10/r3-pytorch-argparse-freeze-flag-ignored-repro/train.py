"""Vibration-sensor fault classifier: 1D-CNN encoder + linear head.
--freeze_encoder True  -> linear probe (only the head is trained)
--freeze_encoder False -> full fine-tuning of encoder + head"""
import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--freeze_encoder", type=bool, default=True)
parser.add_argument("--epochs", type=int, default=8)
parser.add_argument("--lr", type=float, default=3e-3)
parser.add_argument("--batch_size", type=int, default=64)
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
print(args)
torch.manual_seed(args.seed)

N_CLASSES, LENGTH = 4, 128


def make_signals(n, g):
    """Each fault type has its own pair of resonance frequencies; amplitude/phase/noise vary."""
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    t = torch.arange(LENGTH) / LENGTH
    f1 = torch.tensor([5.0, 5.0, 9.0, 9.0])[y].unsqueeze(1)
    f2 = torch.tensor([17.0, 23.0, 17.0, 23.0])[y].unsqueeze(1)
    ph = 2 * math.pi * torch.rand(n, 2, generator=g)
    amp = 0.5 + torch.rand(n, 2, generator=g)
    x = (amp[:, :1] * torch.sin(2 * math.pi * f1 * t + ph[:, :1])
         + amp[:, 1:] * torch.sin(2 * math.pi * f2 * t + ph[:, 1:])
         + 0.8 * torch.randn(n, LENGTH, generator=g))
    return x.unsqueeze(1), y


g = torch.Generator().manual_seed(1234)
x_tr, y_tr = make_signals(3000, g)
x_va, y_va = make_signals(600, g)
train_loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=args.batch_size, shuffle=True)
val_loader = DataLoader(TensorDataset(x_va, y_va), batch_size=256)


class Encoder(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, width, 9, padding=4), nn.ReLU(),
            nn.Conv1d(width, width, 9, padding=4), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten())

    def forward(self, x):
        return self.net(x)


encoder = Encoder()
head = nn.Linear(16, N_CLASSES)
if args.freeze_encoder:
    for p in encoder.parameters():
        p.requires_grad = False
model = nn.Sequential(encoder, head)
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(1, args.epochs + 1):
    model.train()
    tot, n = 0.0, 0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        tot += loss.item() * len(yb)
        n += len(yb)
    model.eval()
    with torch.no_grad():
        acc = sum((model(xb).argmax(1) == yb).sum().item() for xb, yb in val_loader) / len(y_va)
    print(f"epoch {epoch} train_loss {tot / n:.4f} val_acc {acc:.3f}")
