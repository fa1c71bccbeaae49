import os
import time
import psutil
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
proc = psutil.Process(os.getpid())


def rss_mb():
    return proc.memory_info().rss / 2**20


class SensorWindows(Dataset):
    """Windows of 64 multichannel sensor readings, generated on the fly (stand-in for the parquet shards)."""

    def __init__(self, n, channels=32, length=64):
        self.n, self.c, self.l = n, channels, length

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        base = torch.randn(self.c, 1, generator=g)
        t = torch.linspace(0, 6.28, self.l)
        return base * torch.sin(t * (1 + i % 5)) + 0.1 * torch.randn(self.c, self.l, generator=g)


class ConvAutoencoder(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv1d(c, 128, 5, padding=2), nn.GELU(),
            nn.Conv1d(128, 256, 5, padding=2, stride=2), nn.GELU(),
            nn.Conv1d(256, 256, 3, padding=1, stride=2), nn.GELU(),
        )
        self.dec = nn.Sequential(
            nn.ConvTranspose1d(256, 256, 4, stride=2, padding=1), nn.GELU(),
            nn.ConvTranspose1d(256, 128, 4, stride=2, padding=1), nn.GELU(),
            nn.Conv1d(128, c, 5, padding=2),
        )

    def forward(self, x):
        return self.dec(self.enc(x))


train_ds = SensorWindows(20_000)
val_ds = SensorWindows(25_000)
loader = DataLoader(train_ds, batch_size=128, shuffle=True, num_workers=0)
val_loader = DataLoader(val_ds, batch_size=128, shuffle=False, num_workers=0)
model = ConvAutoencoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
print(f"{len(loader)} train batches/epoch, {len(val_loader)} val batches, rss at start {rss_mb():.0f} MB")


def validate(epoch):
    model.eval()
    val_loss = 0.0
    for step, x in enumerate(val_loader):
        recon = model(x)
        val_loss += F.mse_loss(recon, x)
        if step % 10 == 0:
            print(f"  val epoch {epoch} step {step:3d} rss {rss_mb():7.0f} MB")
    model.train()
    return val_loss.item() / len(val_loader)


for epoch in range(3):
    model.train()
    epoch_loss = 0.0
    t0 = time.time()
    for step, x in enumerate(loader):
        recon = model(x)
        loss = F.mse_loss(recon, x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
        if step % 25 == 0:
            print(f"epoch {epoch} step {step:3d} loss {loss.item():.5f} rss {rss_mb():7.0f} MB  {time.time() - t0:5.1f}s")
    print(f"epoch {epoch} mean train loss {epoch_loss / len(loader):.5f}")
    print(f"epoch {epoch} val loss {validate(epoch):.5f}")
    torch.save(model.state_dict(), "ae.pt")
