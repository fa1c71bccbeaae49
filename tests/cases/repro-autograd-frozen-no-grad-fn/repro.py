"""Broken on purpose: the backbone is frozen and the head's output is detached,
so the loss has no path to any trainable parameter."""
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
for p in backbone.parameters():
    p.requires_grad_(False)          # froze everything, no adapter attached
opt = torch.optim.SGD([p for p in backbone.parameters()], lr=0.1)
x = torch.randn(8, 16)
y = torch.randint(0, 4, (8,))
for step in range(3):
    logits = backbone(x)
    loss = nn.functional.cross_entropy(logits, y)
    print(f"step {step} loss {loss.item():.4f}", flush=True)
    opt.zero_grad()
    loss.backward()
    opt.step()
