"""Transformer denoising autoencoder for anomaly scoring of a multichannel pump recording."""
import math
import resource
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

resource.setrlimit(resource.RLIMIT_AS, (16 << 30, 16 << 30))  # shared box: keep this job under 16 GB

CH, D, HEADS, LAYERS, WIN = 8, 64, 4, 2, 256


def recording(n, rng, anomalies=()):
    t = np.arange(n)
    base = np.stack([np.sin(2 * np.pi * t / p + k) for k, p in enumerate([50, 73, 120, 31, 200, 64, 97, 45])])
    x = base + 0.1 * rng.standard_normal((CH, n))
    for a in anomalies:
        x[:, a:a + 300] += rng.standard_normal((CH, 1)) * 1.5
    return torch.from_numpy(x.T.astype(np.float32))  # (time, channels)


def sinusoid(T, d):
    pos = torch.arange(T).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
    pe = torch.zeros(T, d)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    return pe


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, HEADS, D // HEADS).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(D // HEADS)
        y = att.softmax(-1) @ v
        return self.proj(y.transpose(1, 2).reshape(B, T, D))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2, self.attn = nn.LayerNorm(D), nn.LayerNorm(D), SelfAttention()
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class DenoisingAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp, self.out = nn.Linear(CH, D), nn.Linear(D, CH)
        self.blocks = nn.Sequential(*[Block() for _ in range(LAYERS)])

    def forward(self, x):
        h = self.inp(x) + sinusoid(x.shape[1], D)
        return self.out(self.blocks(h))


def score_recording(model, x):
    model.eval()
    with torch.no_grad():
        recon = model(x.unsqueeze(0)).squeeze(0)
    return (recon - x).pow(2).mean(1)


def main():
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    train_rec = recording(200_000, rng)
    test_rec = recording(48_000, rng, anomalies=(9_000, 31_500))
    mu, sd = train_rec.mean(0), train_rec.std(0)
    train_rec, test_rec = (train_rec - mu) / sd, (test_rec - mu) / sd
    model = DenoisingAE()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    print(f"torch {torch.__version__} | train {len(train_rec)} steps, test {len(test_rec)} steps, window {WIN}")
    t0 = time.time()
    for step in range(1, 301):
        starts = torch.randint(0, len(train_rec) - WIN, (32,))
        clean = torch.stack([train_rec[s:s + WIN] for s in starts.tolist()])
        loss = F.mse_loss(model(clean + 0.3 * torch.randn_like(clean)), clean)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step} | recon_mse {loss.item():.4f} | {time.time() - t0:.1f}s")
    torch.save(model.state_dict(), "pump_dae.pt")
    print("scoring test recording ...")
    err = score_recording(model, test_rec)
    thr = err.quantile(0.99)
    print(f"threshold {thr:.4f}; anomalous steps: {(err > thr).nonzero().squeeze(1)[:10].tolist()} ...")


if __name__ == "__main__":
    main()
