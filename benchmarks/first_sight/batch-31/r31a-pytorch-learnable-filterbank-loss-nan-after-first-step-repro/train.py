"""Bird-call classifier with a learnable filterbank front-end (LEAF-style, simplified)."""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
SR, MAX_SEC = 8000, 2.0
N_FFT, HOP, N_FILT, N_CLASSES = 256, 128, 48, 6


class Calls(Dataset):
    """Synthetic chirps of 0.6-2.0 s, padded to MAX_SEC like the field recordings."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        max_len = int(SR * MAX_SEC)
        for i in range(n):
            label = i % N_CLASSES
            dur = 0.6 + 1.4 * torch.rand(1, generator=g).item()
            t = torch.arange(int(SR * dur)) / SR
            f0 = 500 + 400 * label + 200 * torch.rand(1, generator=g).item()
            wav = torch.sin(2 * math.pi * (f0 + 300 * t) * t) * torch.hann_window(len(t))
            wav = wav + 0.02 * torch.randn(len(t), generator=g)
            wav = F.pad(wav, (0, max_len - len(wav)))
            self.items.append((wav, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class LogCompress(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, floor):
        ctx.save_for_backward(x)
        return torch.log(torch.clamp(x, min=floor))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out / x, None


class LearnableFrontend(nn.Module):
    def __init__(self):
        super().__init__()
        n_bins = N_FFT // 2 + 1
        centers = torch.linspace(0, n_bins - 1, N_FILT)
        bins = torch.arange(n_bins).float()
        init = torch.exp(-0.5 * ((bins[None] - centers[:, None]) / 3.0) ** 2)
        self.filters = nn.Parameter(init)
        self.register_buffer("window", torch.hann_window(N_FFT))

    def forward(self, wav):
        spec = torch.stft(wav, N_FFT, HOP, window=self.window, return_complex=True)
        power = spec.abs().pow(2).transpose(1, 2)          # (B, T, bins)
        energies = power @ self.filters.abs().t()           # (B, T, N_FILT)
        return LogCompress.apply(energies, 1e-5)


class CallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = LearnableFrontend()
        self.norm = nn.BatchNorm1d(N_FILT)
        self.conv = nn.Sequential(
            nn.Conv1d(N_FILT, 64, 5, padding=2), nn.ReLU(),
            nn.Conv1d(64, 64, 5, padding=2), nn.ReLU(),
        )
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, wav):
        x = self.frontend(wav).transpose(1, 2)             # (B, N_FILT, T)
        x = self.conv(self.norm(x))
        return self.head(x.amax(dim=2))


def main():
    train_dl = DataLoader(Calls(1200, 1), batch_size=32, shuffle=True)
    val_dl = DataLoader(Calls(300, 2), batch_size=100)
    model = CallNet()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    step, t0 = 0, time.time()
    for epoch in range(3):
        model.train()
        for wav, y in train_dl:
            loss = F.cross_entropy(model(wav), y)
            opt.zero_grad()
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            if step % 10 == 0:
                print(f"epoch {epoch} step {step:4d} loss {loss.item():.4f} grad_norm {gnorm.item():.3f} "
                      f"({time.time() - t0:.1f}s)", flush=True)
            step += 1
        model.eval()
        correct = 0
        with torch.no_grad():
            for wav, y in val_dl:
                correct += (model(wav).argmax(1) == y).sum().item()
        print(f"epoch {epoch} val_acc {correct / len(val_dl.dataset):.3f}", flush=True)


if __name__ == "__main__":
    main()
