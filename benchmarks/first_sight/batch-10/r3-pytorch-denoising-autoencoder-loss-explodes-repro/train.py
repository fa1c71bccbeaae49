"""Denoising autoencoder for NIR spectra (256 wavelength bins) - we use the 16-d
bottleneck as features for a downstream calibration model."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)

N_BINS, LATENT = 256, 16
BATCH_SIZE, EPOCHS, LR = 128, 6, 0.5


class SpectraDataset(Dataset):
    """Each spectrum is a mixture of 6 reference compounds (fixed absorption bands,
    random concentrations) plus a linear baseline drift."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        wl = torch.linspace(0, 1, N_BINS)
        centers = torch.tensor([0.12, 0.25, 0.41, 0.55, 0.71, 0.86])
        widths = torch.tensor([0.03, 0.05, 0.04, 0.06, 0.03, 0.05])
        refs = torch.exp(-((wl - centers[:, None]) / widths[:, None]) ** 2)    # (6, N_BINS)
        conc = torch.rand(n, 6, generator=g)
        drift = 0.2 * torch.rand(n, 1, generator=g) * wl
        self.clean = conc @ refs + drift

    def __len__(self):
        return len(self.clean)

    def __getitem__(self, i):
        x = self.clean[i]
        return x + 0.05 * torch.randn_like(x), x


class DAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(N_BINS, 128), nn.ReLU(), nn.Linear(128, LATENT))
        self.dec = nn.Sequential(nn.Linear(LATENT, 128), nn.ReLU(), nn.Linear(128, N_BINS))

    def forward(self, x):
        return self.dec(self.enc(x))


train_loader = DataLoader(SpectraDataset(8192, 0), batch_size=BATCH_SIZE, shuffle=True)
val_loader = DataLoader(SpectraDataset(1024, 1), batch_size=512)
model = DAE()
opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)

step = 0
for epoch in range(1, EPOCHS + 1):
    model.train()
    for noisy, clean in train_loader:
        recon = model(noisy)
        loss = F.mse_loss(recon, clean, reduction="sum")
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step <= 10 or step % 8 == 0:
            print(f"epoch {epoch} step {step:4d} loss {loss.item():.6g}")
    model.eval()
    with torch.no_grad():
        val_rmse = math.sqrt(sum(F.mse_loss(model(n), c, reduction="sum").item() for n, c in val_loader)
                             / (len(val_loader.dataset) * N_BINS))
    print(f"== epoch {epoch} val_rmse {val_rmse:.5g}")
torch.save(model.enc.state_dict(), "dae_encoder.pt")
