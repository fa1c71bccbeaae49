"""CTR model (dense features + hashed categorical embeddings), tracks train AUC per epoch."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)

N_TRAIN, N_VAL = 80_000, 400_000
N_DENSE, N_CAT, HASH_BUCKETS, EMB_DIM = 16, 8, 10_000, 32
BATCH = 1024
EVAL_BATCH = 4096
EPOCHS = 3


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return -1.0


def roc_auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty_like(order, dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


W = np.random.randn(N_DENSE) * 0.4
CAT_BIAS = np.random.randn(HASH_BUCKETS) * 0.6


def make_data(n_rows):
    dense = np.random.randn(n_rows, N_DENSE).astype(np.float32)
    cats = np.random.randint(0, HASH_BUCKETS, size=(n_rows, N_CAT))
    w, cat_bias = W, CAT_BIAS
    logit = dense @ w + cat_bias[cats].sum(1) * 0.5 - 1.5
    y = (np.random.rand(n_rows) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return torch.from_numpy(dense), torch.from_numpy(cats), torch.from_numpy(y)


class CTRNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(HASH_BUCKETS * N_CAT, EMB_DIM, mode="sum")
        self.register_buffer("offsets", torch.arange(N_CAT) * HASH_BUCKETS)
        self.mlp = nn.Sequential(
            nn.Linear(N_DENSE + EMB_DIM, 1024), nn.ReLU(),
            nn.Linear(1024, 1024), nn.ReLU(),
            nn.Linear(1024, 512), nn.ReLU(),
            nn.Linear(512, 1),
        )

    def forward(self, dense, cats):
        e = self.emb(cats + self.offsets)
        return self.mlp(torch.cat([dense, e], dim=1)).squeeze(1)


def evaluate(model, loader):
    model.eval()
    scores, labels, loss_sum = [], [], 0.0
    crit = nn.BCEWithLogitsLoss(reduction="sum")
    for d, c, t in loader:
        logits = model(d, c)
        loss_sum += crit(logits, t).item()
        scores.append(torch.sigmoid(logits))
        labels.append(t)
    scores = torch.cat(scores).detach().numpy()
    labels = torch.cat(labels).numpy()
    return loss_sum / len(labels), roc_auc(scores, labels)


def main():
    train_ds = TensorDataset(*make_data(N_TRAIN))
    val_ds = TensorDataset(*make_data(N_VAL))
    print(f"train={N_TRAIN} val={N_VAL} ctr={train_ds.tensors[2].mean():.3f} rss={rss_mb():.0f}MB")
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=EVAL_BATCH)

    model = CTRNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    crit = nn.BCEWithLogitsLoss()

    for epoch in range(EPOCHS):
        model.train()
        t0, loss_sum = time.time(), 0.0
        for step, (d, c, t) in enumerate(train_dl, 1):
            loss = crit(model(d, c), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item()
            if step % 20 == 0:
                print(f"  epoch {epoch} step {step:3d} loss {loss_sum / step:.4f} "
                      f"rss {rss_mb():.0f}MB {(time.time() - t0) / step * 1000:.0f}ms/step", flush=True)
        print(f"epoch {epoch} train_loss {loss_sum / step:.4f} rss {rss_mb():.0f}MB; validating...", flush=True)
        val_loss, val_auc = evaluate(model, val_dl)
        print(f"epoch {epoch} val_loss {val_loss:.4f} val_auc {val_auc:.4f} rss {rss_mb():.0f}MB", flush=True)

    torch.save(model.state_dict(), "/tmp/ctr_net.pt")


if __name__ == "__main__":
    main()
