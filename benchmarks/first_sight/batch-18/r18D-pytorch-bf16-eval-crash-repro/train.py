import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
USE_BF16 = True  # CPU has AMX/AVX512-bf16, use autocast for speed

# ---- synthetic click-through style binary task -------------------------------
N_NUM, N_CAT, CARD = 13, 8, 1000


def make_split(n):
    num = torch.randn(n, N_NUM)
    cat = torch.randint(0, CARD, (n, N_CAT))
    logit = num[:, :4].sum(1) * 0.7 + torch.sin(cat[:, 0].float()) - 0.5
    y = (torch.rand(n) < torch.sigmoid(logit)).float()
    return TensorDataset(num, cat, y)


train_dl = DataLoader(make_split(40000), batch_size=512, shuffle=True)
val_dl = DataLoader(make_split(8000), batch_size=2048)


class CTRModel(nn.Module):
    def __init__(self, emb_dim=16):
        super().__init__()
        self.emb = nn.ModuleList(nn.Embedding(CARD, emb_dim) for _ in range(N_CAT))
        self.mlp = nn.Sequential(
            nn.Linear(N_NUM + N_CAT * emb_dim, 256), nn.ReLU(),
            nn.Linear(256, 128), nn.ReLU(),
            nn.Linear(128, 1),
        )

    def forward(self, num, cat):
        e = torch.cat([emb(cat[:, i]) for i, emb in enumerate(self.emb)], dim=1)
        return self.mlp(torch.cat([num, e], dim=1)).squeeze(-1)


def roc_auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty_like(order, dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    n_pos = labels.sum()
    n_neg = len(labels) - n_pos
    return (ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


model = CTRModel()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
loss_fn = nn.BCEWithLogitsLoss()


def evaluate():
    model.eval()
    all_scores, all_labels = [], []
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=USE_BF16):
        for num, cat, y in val_dl:
            all_scores.append(torch.sigmoid(model(num, cat)))
            all_labels.append(y)
    scores = torch.cat(all_scores).numpy()
    labels = torch.cat(all_labels).numpy()
    model.train()
    return roc_auc(scores, labels), float(((scores > 0.5) == labels).mean())


print(f"torch {torch.__version__} | bf16 autocast={USE_BF16} | steps/epoch={len(train_dl)}")
t0 = time.time()
for epoch in range(3):
    tot, n = 0.0, 0
    for i, (num, cat, y) in enumerate(train_dl):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=USE_BF16):
            logits = model(num, cat)
            loss = loss_fn(logits.float(), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item(); n += 1
        if i % 20 == 0:
            print(f"epoch {epoch} iter {i:3d} | loss {loss.item():.4f}")
    auc, acc = evaluate()
    print(f"== epoch {epoch} | train_loss {tot/n:.4f} | val_auc {auc:.4f} | val_acc {acc:.4f} | {time.time()-t0:.1f}s")
