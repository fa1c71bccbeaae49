"""CTR model: categorical embeddings + dense features -> MLP with BatchNorm."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, random_split

CARDINALITIES = [1000, 300, 50, 12, 7]
N_DENSE = 13
EMB_DIM = 16
BATCH_SIZE = 512
EPOCHS = 3


class ClickLog(Dataset):
    def __init__(self, n_rows, seed=0):
        rng = np.random.default_rng(seed)
        self.cat = np.stack([rng.integers(0, c, n_rows) for c in CARDINALITIES], 1).astype(np.int64)
        self.dense = np.log1p(rng.exponential(3.0, size=(n_rows, N_DENSE))).astype(np.float32)
        score = self.dense[:, 0] - self.dense[:, 1] + (self.cat[:, 3] % 3 == 0) - 0.8
        self.label = (rng.random(n_rows) < 1 / (1 + np.exp(-2 * score))).astype(np.float32)
        # drop rows with impossible hour bucket (data-quality filter from the ETL job)
        keep = ~((self.cat[:, 3] == 11) & (self.cat[:, 4] == 6))
        self.cat, self.dense, self.label = self.cat[keep], self.dense[keep], self.label[keep]

    def __len__(self):
        return len(self.label)

    def __getitem__(self, i):
        return self.cat[i], self.dense[i], self.label[i]


class CTRNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embs = nn.ModuleList(nn.Embedding(c, EMB_DIM) for c in CARDINALITIES)
        d = EMB_DIM * len(CARDINALITIES) + N_DENSE
        self.mlp = nn.Sequential(
            nn.Linear(d, 256), nn.BatchNorm1d(256), nn.ReLU(),
            nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(),
            nn.Linear(128, 1),
        )

    def forward(self, cat, dense):
        e = torch.cat([emb(cat[:, i]) for i, emb in enumerate(self.embs)] + [dense], dim=1)
        return self.mlp(e).squeeze(-1)


def main():
    torch.manual_seed(0)
    ds = ClickLog(59260)
    n_val = int(0.1 * len(ds))
    train_ds, val_ds = random_split(ds, [len(ds) - n_val, n_val], generator=torch.Generator().manual_seed(0))
    print(f"rows after filter: {len(ds)}  train={len(train_ds)} val={len(val_ds)}")
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True, num_workers=2)
    val_dl = DataLoader(val_ds, batch_size=2048)

    model = CTRNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        for step, (cat, dense, y) in enumerate(train_dl):
            loss = loss_fn(model(cat, dense), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 25 == 0:
                print(f"epoch {epoch} step {step:3d}/{len(train_dl)} loss {loss.item():.4f}")
        model.eval()
        with torch.no_grad():
            tot, n = 0.0, 0
            for cat, dense, y in val_dl:
                tot += loss_fn(model(cat, dense), y).item() * len(y)
                n += len(y)
        print(f"epoch {epoch} val_logloss {tot / n:.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
