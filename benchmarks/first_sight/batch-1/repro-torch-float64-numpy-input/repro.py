import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(0)

# tabular regression data prepared with numpy/pandas
X = rng.normal(size=(1000, 20))
w_true = rng.normal(size=(20, 1))
y = X @ w_true + 0.1 * rng.normal(size=(1000, 1))

X_t = torch.from_numpy(X)
y_t = torch.from_numpy(y)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

print(f"X: {X_t.shape} {X_t.dtype}  y: {y_t.shape} {y_t.dtype}")
for epoch in range(100):
    perm = torch.randperm(len(X_t))
    for i in range(0, len(X_t), 50):
        idx = perm[i:i + 50]
        pred = model(X_t[idx])
        loss = loss_fn(pred, y_t[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.5f}")
