"""Train a small VAE on vibration-sensor windows (64 samples per window).

The latent space is later used for anomaly scoring, so we want a decent
reconstruction and a roughly N(0, I) posterior.
"""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

torch.manual_seed(0)

WINDOW = 64
LATENT = 8
EPOCHS = 8
BATCH = 128
LR = 1e-3


class SensorWindows(Dataset):
    """Synthetic stand-in for the accelerometer export: sums of a few sines + noise."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        t = torch.linspace(0, 1, WINDOW)
        freqs = torch.randint(2, 12, (n, 3), generator=g).float()
        amps = torch.rand(n, 3, generator=g)
        phase = torch.rand(n, 3, generator=g) * 2 * math.pi
        x = (amps[:, :, None] * torch.sin(2 * math.pi * freqs[:, :, None] * t + phase[:, :, None])).sum(1)
        x = x + 0.05 * torch.randn(n, WINDOW, generator=g)
        self.x = (x - x.mean()) / x.std()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i]


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(WINDOW, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU())
        self.mu = nn.Linear(64, LATENT)
        self.logvar = nn.Linear(64, LATENT)
        self.dec = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, 128), nn.ReLU(),
                                 nn.Linear(128, WINDOW))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def vae_loss(recon, x, mu, logvar):
    rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
    kld = 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return rec + kld


def main():
    train_ds, val_ds = SensorWindows(8000, seed=1), SensorWindows(1000, seed=2)
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    print(f"train windows: {len(train_ds)}  val windows: {len(val_ds)}  params: "
          f"{sum(p.numel() for p in model.parameters())}")

    for epoch in range(1, EPOCHS + 1):
        model.train()
        tot = 0.0
        for step, x in enumerate(train_dl):
            recon, mu, logvar = model(x)
            loss = vae_loss(recon, x, mu, logvar)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * x.size(0)
            if epoch == 1 and step % 10 == 0:
                print(f"  step {step:3d} | loss {loss.item():.4f}")
        model.eval()
        with torch.no_grad():
            val_mse = 0.0
            for x in val_dl:
                recon, mu, logvar = model(x)
                val_mse += F.mse_loss(recon, x, reduction="sum").item()
            val_mse /= len(val_ds) * WINDOW
        print(f"epoch {epoch:2d} | train loss {tot / len(train_ds):.4f} | val recon mse {val_mse:.4f}")

    torch.save(model.state_dict(), "vae_sensor.pt")


if __name__ == "__main__":
    main()
