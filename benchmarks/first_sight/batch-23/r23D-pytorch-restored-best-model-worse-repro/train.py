"""Churn classifier on the small pilot dataset. Keeps the weights of the best validation epoch,
restores them at the end and exports them for the scoring service."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

EPOCHS = 40
SEED = 3


def pilot_data(seed):
    rng = np.random.default_rng(seed)
    n, d = 1400, 40
    X = rng.normal(size=(n, d)).astype(np.float32)
    w = np.zeros(d, dtype=np.float32)
    w[:6] = [1.5, -1.2, 1.0, 0.8, -0.7, 0.5]
    y = (X @ w + rng.normal(0, 1.5, n) > 0).astype(np.int64)
    return X[:800], y[:800], X[800:1100], y[800:1100], X[1100:], y[1100:]


@torch.no_grad()
def accuracy(model, X, y):
    model.eval()
    return (model(torch.from_numpy(X)).argmax(1).numpy() == y).mean()


def main():
    torch.manual_seed(SEED)
    Xtr, ytr, Xva, yva, Xte, yte = pilot_data(SEED)
    dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(40, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)

    best_acc, best_epoch, best_state = 0.0, -1, None
    for epoch in range(EPOCHS):
        model.train()
        tot = 0.0
        for xb, yb in dl:
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        tr_acc, va_acc = accuracy(model, Xtr, ytr), accuracy(model, Xva, yva)
        flag = ""
        if va_acc > best_acc:
            best_acc, best_epoch, best_state = va_acc, epoch, model.state_dict()
            flag = "  *best*"
        if epoch % 4 == 0 or flag:
            print(f"epoch {epoch:2d} loss {tot / len(Xtr):.4f} train_acc {tr_acc:.3f} val_acc {va_acc:.3f}{flag}")

    print(f"restoring best weights from epoch {best_epoch} (val_acc {best_acc:.3f})")
    model.load_state_dict(best_state)
    print(f"after restore: val_acc {accuracy(model, Xva, yva):.3f} test_acc {accuracy(model, Xte, yte):.3f}")
    torch.save(best_state, "churn_mlp_best.pt")
    print("exported churn_mlp_best.pt")


if __name__ == "__main__":
    main()
