"""Click-through model: user/item embeddings + dense features -> MLP.

Data comes from the events export (user_id, item_id, 6 dense features, clicked).
"""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def load_events(n_rows, seed=0):
    # stand-in for the parquet export: account ids are the CRM ids, items are catalogue SKUs
    rng = np.random.default_rng(seed)
    n_accounts = 20_000
    account_pool = rng.integers(1_000_000_000, 4_200_000_000, size=n_accounts, dtype=np.int64)
    user_id = account_pool[rng.integers(0, n_accounts, size=n_rows)]
    item_id = rng.integers(0, 5_000, size=n_rows, dtype=np.int64)
    dense = rng.normal(size=(n_rows, 6)).astype(np.float32)
    logit = 0.8 * dense[:, 0] - 0.5 * dense[:, 3] + 0.3 * np.sin(item_id / 50.0)
    clicked = (rng.random(n_rows) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return user_id, item_id, dense, clicked


class CTRModel(nn.Module):
    def __init__(self, n_users, n_items, n_dense, emb_dim=32, hidden=128):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, emb_dim)
        self.item_emb = nn.Embedding(n_items, emb_dim)
        self.mlp = nn.Sequential(
            nn.Linear(2 * emb_dim + n_dense, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, u, i, x):
        h = torch.cat([self.user_emb(u), self.item_emb(i), x], dim=1)
        return self.mlp(h).squeeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--bs", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=2e-3)
    args = ap.parse_args()
    torch.manual_seed(0)

    user_id, item_id, dense, clicked = load_events(args.rows)
    print(f"loaded {len(clicked)} events, {len(np.unique(user_id))} users, "
          f"{len(np.unique(item_id))} items, ctr={clicked.mean():.3f}")

    n_users = int(user_id.max()) + 1
    n_items = int(item_id.max()) + 1
    split = int(0.9 * len(clicked))
    tensors = [torch.from_numpy(a) for a in (user_id, item_id, dense, clicked)]
    train_ds = TensorDataset(*[t[:split] for t in tensors])
    val_ds = TensorDataset(*[t[split:] for t in tensors])
    train_dl = DataLoader(train_ds, batch_size=args.bs, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=4096)

    print("building model")
    model = CTRModel(n_users, n_items, dense.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(args.epochs):
        model.train()
        t0, tot, n = time.time(), 0.0, 0
        for u, i, x, y in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(u, i, x), y)
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
            n += len(y)
        model.eval()
        correct, vn = 0, 0
        with torch.no_grad():
            for u, i, x, y in val_dl:
                p = torch.sigmoid(model(u, i, x))
                correct += ((p > 0.5).float() == y).sum().item()
                vn += len(y)
        print(f"epoch {epoch} train_loss={tot / n:.4f} val_acc={correct / vn:.4f} "
              f"({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
