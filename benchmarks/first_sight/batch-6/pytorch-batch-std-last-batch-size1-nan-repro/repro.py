import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
print(f"torch {torch.__version__}")

# tabular regression: 10 raw features with very different scales
N, D = 2049, 10
scales = torch.logspace(-2, 3, D)
X = torch.randn(N, D) * scales + 5.0
w_true = torch.randn(D)
y = torch.tanh((X - 5.0) / scales) @ w_true.unsqueeze(1) + 0.1 * torch.randn(N, 1)

loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        # standardise features on the fly
        x = (x - x.mean(dim=0)) / (x.std(dim=0) + 1e-6)
        return self.mlp(x)


model = Net()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
step = 0
for epoch in range(5):
    for xb, yb in loader:
        pred = model(xb)
        loss = nn.functional.mse_loss(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 8 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    print(f"epoch {epoch} done, last loss {loss.item():.4f}")
