"""Sensor-window classifier. bf16 run to halve activation/weight memory on the CPU box."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)

N_TRAIN, N_VAL = 12000, 2000
SEQ, CH, N_CLASSES = 64, 8, 6
BATCH = 128
EPOCHS = 6
LR = 3e-5
DTYPE = torch.bfloat16


class SensorWindows(Dataset):
    """Synthetic stand-in for the accelerometer windows: class = dominant frequency band."""

    def __init__(self, n, gen):
        t = torch.linspace(0, 1, SEQ)
        self.y = torch.randint(0, N_CLASSES, (n,), generator=gen)
        freq = 2.0 + 3.0 * self.y.float()
        phase = torch.rand(n, CH, 1, generator=gen) * 6.28
        amp = 0.5 + torch.rand(n, CH, 1, generator=gen)
        sig = amp * torch.sin(6.28 * freq[:, None, None] * t[None, None, :] + phase)
        self.x = sig + 1.2 * torch.randn(n, CH, SEQ, generator=gen)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(CH, 64, 7, padding=3), nn.GELU(),
            nn.Conv1d(64, 64, 7, padding=3), nn.GELU(),
            nn.AdaptiveAvgPool1d(8),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 8, 128), nn.GELU(), nn.Linear(128, N_CLASSES))

    def forward(self, x):
        return self.head(self.body(x))


def evaluate(model, dl):
    model.eval()
    correct = n = 0
    loss_sum = 0.0
    with torch.no_grad():
        for x, y in dl:
            out = model(x.to(DTYPE))
            loss_sum += F.cross_entropy(out.float(), y, reduction="sum").item()
            correct += (out.argmax(1) == y).sum().item()
            n += len(y)
    model.train()
    return loss_sum / n, correct / n


def main():
    gen = torch.Generator().manual_seed(1)
    train_ds, val_ds = SensorWindows(N_TRAIN, gen), SensorWindows(N_VAL, gen)
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = ConvNet().to(DTYPE)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"params={n_params} dtype={next(model.parameters()).dtype} lr={LR} batch={BATCH}")

    step = 0
    for epoch in range(EPOCHS):
        t0 = time.time()
        running = 0.0
        for x, y in train_dl:
            out = model(x.to(DTYPE))
            loss = F.cross_entropy(out.float(), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            running += loss.item()
            step += 1
            if step % 25 == 0:
                print(f"step {step:5d} train_loss {running / 25:.4f}")
                running = 0.0
        vl, va = evaluate(model, val_dl)
        print(f"epoch {epoch} val_loss {vl:.4f} val_acc {va:.4f} time {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
