"""Train a small text-length regressor, keep the best checkpoint, then reload it for evaluation."""
import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(512, 6)
y = x.sum(dim=1, keepdim=True)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
ckpt = os.path.join(tempfile.mkdtemp(), "best.pt")
best = float("inf")
for epoch in range(10):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if loss.item() < best:
        best = loss.item()
        torch.save(model.state_dict, ckpt)
print(f"best train mse {best:.4f}, saved {ckpt}")

restored = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
restored.load_state_dict(torch.load(ckpt))
print("restored mse", nn.functional.mse_loss(restored(x), y).item())
