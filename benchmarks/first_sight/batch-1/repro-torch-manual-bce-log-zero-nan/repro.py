import torch
import torch.nn as nn

torch.manual_seed(0)

# raw (unnormalized) sensor readings in the 0..10 range
N = 4096
X = torch.rand(N, 16) * 10.0
w = torch.randn(16)
y = ((X - 5.0) @ w > 0).float()


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x)).squeeze(-1)


def bce(p, t):
    return -(t * torch.log(p) + (1 - t) * torch.log(1 - p)).mean()


model = Classifier()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

step = 0
for epoch in range(8):
    perm = torch.randperm(N)
    for i in range(0, N, 128):
        idx = perm[i:i + 128]
        p = model(X[idx])
        loss = bce(p, y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        step += 1
