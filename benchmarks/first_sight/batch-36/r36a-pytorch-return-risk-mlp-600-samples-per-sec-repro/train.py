"""Return-risk classifier for e-commerce orders (tabular MLP).

Periodic validation keeps the best checkpoint (best.pt) so a late
overfitting epoch does not cost us the good weights.
"""
import time
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=2)
p.add_argument("--batch-size", type=int, default=128)
p.add_argument("--lr", type=float, default=2e-3)
p.add_argument("--eval-every", type=int, default=100, help="validate every N optimizer steps")
p.add_argument("--log-every", type=int, default=25)
args = p.parse_args()

torch.manual_seed(0)
rng = np.random.default_rng(0)

N_TRAIN, N_VAL, N_FEAT = 16_000, 10_000, 48


def make_split(n):
    X = rng.normal(size=(n, N_FEAT)).astype(np.float32)
    w = np.linspace(-1, 1, N_FEAT).astype(np.float32)
    logits = X @ w + 0.5 * np.sin(3 * X[:, 0]) - 0.8
    y = (rng.random(n) < 1 / (1 + np.exp(-logits))).astype(np.int64)
    return TensorDataset(torch.from_numpy(X), torch.from_numpy(y))


train_ds, val_ds = make_split(N_TRAIN), make_split(N_VAL)
train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=1024)

model = nn.Sequential(
    nn.Linear(N_FEAT, 256), nn.ReLU(), nn.Dropout(0.1),
    nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.1),
    nn.Linear(128, 2),
)
opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)


@torch.no_grad()
def evaluate():
    model.eval()
    tot_loss, correct, n = 0.0, 0, 0
    for x, y in val_dl:
        out = model(x)
        tot_loss += F.cross_entropy(out, y, reduction="sum").item()
        correct += (out.argmax(1) == y).sum().item()
        n += len(y)
    model.train()
    return tot_loss / n, correct / n


best_val = float("inf")
global_step = 0
for epoch in range(args.epochs):
    model.train()
    t_epoch = time.time()
    t_win, seen_win = time.time(), 0
    for x, y in train_dl:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        global_step += 1
        seen_win += len(y)

        if global_step % args.eval_every:
            val_loss, val_acc = evaluate()
            if val_loss < best_val:
                best_val = val_loss
                torch.save(model.state_dict(), "best.pt")

        if global_step % args.log_every == 0:
            dt = time.time() - t_win
            print(f"epoch {epoch} step {global_step} loss {loss.item():.4f} "
                  f"{seen_win / dt:.0f} samples/s", flush=True)
            t_win, seen_win = time.time(), 0
    val_loss, val_acc = evaluate()
    print(f"== epoch {epoch} done in {time.time() - t_epoch:.1f}s  val_loss {val_loss:.4f} "
          f"val_acc {val_acc:.4f}  best_val_loss {best_val:.4f}", flush=True)
