"""Customer-churn classifier on tabular features (MLP with BatchNorm)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

N_CUSTOMERS = 801
N_FEATURES = 20
BATCH_SIZE = 64
EPOCHS = 5


def load_customers():
    # stand-in for the CRM export: 20 numeric features per customer + churn flag
    X = rng.normal(size=(N_CUSTOMERS, N_FEATURES)).astype(np.float32)
    w = rng.normal(size=N_FEATURES)
    y = ((X @ w + 0.5 * rng.normal(size=N_CUSTOMERS)) > 0).astype(np.float32)
    return X, y


class ChurnDataset(Dataset):
    def __init__(self, X, y):
        self.X = torch.from_numpy(X)
        self.y = torch.from_numpy(y)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


class ChurnMLP(nn.Module):
    def __init__(self, d_in, d_hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, d_hidden), nn.BatchNorm1d(d_hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(d_hidden, d_hidden), nn.BatchNorm1d(d_hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(d_hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


X, y = load_customers()
perm = rng.permutation(N_CUSTOMERS)
n_train = int(round(0.8 * N_CUSTOMERS))
tr, va = perm[:n_train], perm[n_train:]
train_ds, val_ds = ChurnDataset(X[tr], y[tr]), ChurnDataset(X[va], y[va])
print(f"train customers: {len(train_ds)}  val customers: {len(val_ds)}")

train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=256)

model = ChurnMLP(N_FEATURES)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()

for epoch in range(1, EPOCHS + 1):
    model.train()
    total, n = 0.0, 0
    for step, (xb, yb) in enumerate(train_loader):
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        n += len(yb)
        if step % 5 == 0:
            print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        correct = sum(((model(xb) > 0).float() == yb).sum().item() for xb, yb in val_loader)
    print(f"epoch {epoch} train_loss {total / n:.4f} val_acc {correct / len(val_ds):.3f}")

torch.save(model.state_dict(), "churn_mlp.pt")
print("saved churn_mlp.pt")
