"""Per-timestep fault detection on pump telemetry windows (1D temporal CNN + focal loss).

Each window is 256 samples x 6 channels; a fault burst (if any) is labelled frame by frame.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(6)
N_TRAIN, N_VAL, T, CH = 12_000, 2_000, 256, 6
BATCH, LR, EPOCHS = 16, 1e-3, 3
ALPHA, GAMMA = 0.25, 2.0


def make_windows(n, gen):
    x = torch.randn(n, CH, T, generator=gen) * 0.5
    x += torch.sin(torch.linspace(0, 20, T)).expand(n, CH, T)
    y = torch.zeros(n, T)
    has_fault = torch.rand(n, generator=gen) < 0.35
    for i in torch.nonzero(has_fault).flatten().tolist():
        start = int(torch.randint(0, T - 40, (1,), generator=gen))
        length = int(torch.randint(8, 40, (1,), generator=gen))
        x[i, :3, start:start + length] += 1.5 * torch.randn(3, length, generator=gen)
        y[i, start:start + length] = 1.0
    return x, y


class TCN(nn.Module):
    def __init__(self):
        super().__init__()
        layers, c = [], CH
        for d in (1, 2, 4, 8):
            layers += [nn.Conv1d(c, 64, 3, padding=d, dilation=d), nn.BatchNorm1d(64), nn.ReLU()]
            c = 64
        self.body = nn.Sequential(*layers)
        self.head = nn.Conv1d(64, 1, 1)
        nn.init.constant_(self.head.bias, -4.0)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(1)


def focal_loss(logits, targets):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    a_t = ALPHA * targets + (1 - ALPHA) * (1 - targets)
    loss = a_t * (1 - p_t) ** GAMMA * ce
    num_pos = targets.sum()
    return loss.sum() / num_pos


def main():
    g = torch.Generator().manual_seed(0)
    xtr, ytr = make_windows(N_TRAIN, g)
    xva, yva = make_windows(N_VAL, g)
    print(f"train windows={N_TRAIN} fault frames={ytr.mean().item():.4f}")
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=BATCH, shuffle=True)
    model = TCN()
    opt = torch.optim.Adam(model.parameters(), lr=LR)

    step = 0
    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        for xb, yb in loader:
            loss = focal_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            if step % 25 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
            step += 1
        model.eval()
        with torch.no_grad():
            pred = torch.sigmoid(model(xva)) > 0.5
            tp = (pred & (yva == 1)).sum().item()
            prec = tp / max(pred.sum().item(), 1)
            rec = tp / yva.sum().item()
        print(f"epoch {epoch} done in {time.time() - t0:.0f}s  frame precision={prec:.3f} recall={rec:.3f}")


if __name__ == "__main__":
    main()
