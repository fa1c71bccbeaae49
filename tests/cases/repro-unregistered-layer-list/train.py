"""Tabular regressor with a configurable number of hidden blocks."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, n_in, width, depth):
        super().__init__()
        self.inp = nn.Linear(n_in, width)
        self.hidden = [nn.Linear(width, width) for _ in range(depth)]
        self.out = nn.Linear(width, 1)

    def forward(self, x):
        h = torch.relu(self.inp(x))
        for layer in self.hidden:
            h = torch.relu(layer(h))
        return self.out(h).squeeze(-1)


x = torch.randn(2048, 10)
y = torch.sin(x[:, 0] * 2) * x[:, 1] + x[:, 2] ** 2
model = MLP(10, 64, depth=3)
print(f"trainable parameters: {sum(p.numel() for p in model.parameters())}")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(30):
    perm = torch.randperm(len(x))
    total = 0.0
    for i in range(0, len(x), 128):
        idx = perm[i : i + 128]
        loss = nn.functional.mse_loss(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} train_mse {total / len(x):.4f}")
