"""Churn prediction: binary classifier on synthetic customer features."""
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(4096, 12)
w = torch.randn(12)
y = ((x @ w) + 0.3 * torch.randn(4096) > 0).float()


class ChurnNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, feats):
        return torch.sigmoid(self.body(feats)).squeeze(-1)


model = ChurnNet()
criterion = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(20):
    for i in range(0, 4096, 256):
        loss = criterion(model(x[i : i + 256]), y[i : i + 256])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 4 == 3:
        with torch.no_grad():
            p = model(x)
            acc = ((p > 0.5).float() == y).float().mean().item()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} acc {acc:.3f} mean_p {p.mean().item():.3f}")
