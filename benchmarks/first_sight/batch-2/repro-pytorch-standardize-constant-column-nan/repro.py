# Tabular binary classifier; features are standardised per column before training.
import torch
import torch.nn as nn

torch.manual_seed(0)
N = 4096
age = torch.randint(18, 80, (N, 1)).float()
income = torch.randn(N, 1) * 20000 + 50000
clicks = torch.poisson(torch.full((N, 1), 3.0))
is_test_user = torch.zeros(N, 1)          # flag column from the export
X = torch.cat([age, income, clicks, is_test_user], dim=1)
y = ((age > 40).float() * 0.5 + (clicks > 3).float() * 0.5 > 0.4).float()

# standardise features
mean = X.mean(dim=0)
std = X.std(dim=0)
X = (X - mean) / std

model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()

for step in range(1, 101):
    idx = torch.randint(0, N, (128,))
    logits = model(X[idx])
    loss = loss_fn(logits, y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step <= 3:
        print(f"step {step:4d} loss {loss.item():.4f}")
