"""Activity classifier on accelerometer windows, evaluated and exported with an EMA of the weights."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLASS, WIN, CH = 6, 64, 3
EMA_DECAY = 0.995
EPOCHS = 6


def make_windows(n, g):
    y = torch.randint(0, N_CLASS, (n,), generator=g)
    t = torch.arange(WIN).float() / WIN
    freq = (1 + y).float()[:, None, None]
    phase = torch.rand(n, CH, 1, generator=g) * 2 * math.pi
    amp = torch.tensor([1.0, 0.6, 0.3])[None, :, None] * (1 + 0.1 * y.float())[:, None, None]
    x = amp * torch.sin(2 * math.pi * freq * t + phase) + 2.0 * torch.randn(n, CH, WIN, generator=g)
    return x, y


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(CH, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
                                  nn.Conv1d(32, 64, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.fc = nn.Linear(64, N_CLASS)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


@torch.no_grad()
def update_ema(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e = decay * e + (1 - decay) * p


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()


def main():
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    x_tr, y_tr = make_windows(12000, g)
    x_va, y_va = make_windows(2000, g)
    dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True)

    model = Net()
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)

    for epoch in range(EPOCHS):
        model.train()
        correct = seen = 0
        for xb, yb in dl:
            logits = model(xb)
            loss = F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            update_ema(ema, model, EMA_DECAY)
            correct += (logits.argmax(1) == yb).sum().item()
            seen += len(yb)
        print(f"epoch {epoch} loss {loss.item():.4f} train_acc {correct / seen:.4f} "
              f"val_acc(ema) {evaluate(ema, x_va, y_va):.4f}", flush=True)

    torch.save(ema.state_dict(), "activity_ema.pt")
    print(f"saved EMA weights, final val_acc(ema) {evaluate(ema, x_va, y_va):.4f}")


if __name__ == "__main__":
    main()
