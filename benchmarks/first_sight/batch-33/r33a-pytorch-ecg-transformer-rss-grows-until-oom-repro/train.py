"""Arrhythmia classifier on 1-lead ECG beats: patch embedding + 4-layer transformer encoder."""
import math
import resource
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

# shared analysis box: keep this job under 3 GiB of address space
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

torch.manual_seed(0)
SEQ, PATCH, D, HEADS, LAYERS, N_CLS = 4096, 8, 64, 4, 4, 5
BATCH, STEPS, LR = 8, 120, 3e-4


def synth_batch(n):
    t = torch.linspace(0, 1, SEQ)
    y = torch.randint(0, N_CLS, (n,))
    rate = 3 + y.float()[:, None] * 1.5 + 0.3 * torch.randn(n, 1)
    x = torch.sin(2 * math.pi * rate * t) + 0.4 * torch.sin(2 * math.pi * 3 * rate * t) ** 9
    return (x + 0.2 * torch.randn(n, SEQ)).unsqueeze(1), y


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.out = nn.Linear(D, D)
        self.maps = []

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, HEADS, D // HEADS).permute(2, 0, 3, 1, 4)
        attn = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D // HEADS), dim=-1)
        self.maps.append(attn.detach())
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.attn = Attention()
        self.ff = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ff(self.n2(x))


class BeatTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Conv1d(1, D, PATCH, stride=PATCH)
        self.pos = nn.Parameter(torch.zeros(1, SEQ // PATCH, D))
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.head = nn.Linear(D, N_CLS)

    def forward(self, x):
        h = self.embed(x).transpose(1, 2) + self.pos
        for layer in self.layers:
            h = layer(h)
        return self.head(h.mean(1))


model = BeatTransformer()
opt = torch.optim.AdamW(model.parameters(), lr=LR)
print(f"tokens/beat {SEQ // PATCH}  params {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")
t0 = time.time()
for step in range(1, STEPS + 1):
    x, y = synth_batch(BATCH)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 2 == 0:
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"step {step:4d} loss {loss.item():.4f} max_rss {rss:.0f} MiB ({time.time() - t0:.1f}s)", flush=True)

model.eval()
correct = 0
with torch.no_grad():
    for _ in range(8):
        x, y = synth_batch(64)
        correct += (model(x).argmax(1) == y).sum().item()
print(f"eval acc {correct / 512:.4f}")
torch.save({n: l.attn.maps[-1] for n, l in enumerate(model.layers)}, "attention_maps.pt")
