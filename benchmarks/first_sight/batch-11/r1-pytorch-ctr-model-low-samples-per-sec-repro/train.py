"""Click-through-rate model on hashed categorical features (Criteo-style export)."""
import os
import time

import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)

N_FIELDS = 12
HASH_BUCKETS = 2 ** 19
EMB_DIM = 16
BATCH = 512
EPOCHS = 2
CKPT_DIR = "checkpoints"


def load_clicks(n):
    """Synthetic replacement for the parquet export: hashed ids per field + click label."""
    ids = torch.randint(0, HASH_BUCKETS, (n, N_FIELDS))
    w = torch.randn(HASH_BUCKETS) * 0.5
    logit = w[ids].sum(1) / N_FIELDS ** 0.5 - 1.5
    y = torch.bernoulli(torch.sigmoid(logit))
    return ids, y


class CTRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(HASH_BUCKETS, EMB_DIM, sparse=True)
        self.mlp = nn.Sequential(nn.Linear(N_FIELDS * EMB_DIM, 256), nn.ReLU(),
                                 nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, ids):
        return self.mlp(self.emb(ids).flatten(1)).squeeze(1)


def main():
    os.makedirs(CKPT_DIR, exist_ok=True)
    ids, y = load_clicks(40_000)
    train_dl = DataLoader(TensorDataset(ids, y), batch_size=BATCH, shuffle=True)
    model = CTRModel()
    # sparse embedding table -> SparseAdam, dense MLP -> Adam
    opt_sparse = torch.optim.SparseAdam(list(model.emb.parameters()), lr=1e-3)
    opt_dense = torch.optim.Adam(model.mlp.parameters(), lr=1e-3)
    crit = nn.BCEWithLogitsLoss()
    print(f"params: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M, "
          f"steps/epoch: {len(train_dl)}")

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        tot = 0.0
        for step, (x, t) in enumerate(train_dl):
            loss = crit(model(x), t)
            opt_sparse.zero_grad()
            opt_dense.zero_grad()
            loss.backward()
            opt_sparse.step()
            opt_dense.step()
            tot += loss.item()
            if step % 10 == 0:
                el = time.time() - t0
                print(f"epoch {epoch} step {step:4d} loss {loss.item():.4f} | {(step + 1) / el:.2f} it/s")

            # checkpoint so a preempted job can resume from the last epoch
            torch.save({"epoch": epoch, "model": model.state_dict(),
                        "opt_sparse": opt_sparse.state_dict(), "opt_dense": opt_dense.state_dict()},
                       os.path.join(CKPT_DIR, "last.pt"))
        el = time.time() - t0
        print(f"epoch {epoch} done: mean loss {tot / len(train_dl):.4f}, {el:.1f}s, "
              f"{len(train_dl) * BATCH / el:.0f} samples/s")


if __name__ == "__main__":
    main()
