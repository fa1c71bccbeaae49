"""Skin-lesion-style 3-class classifier on precomputed 128-d embeddings.

v2: class 2 is rare (~3%), so batches are now rebalanced with a WeightedRandomSampler.
"""
import argparse
from collections import Counter

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--bs", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--no-balance", action="store_true")
    return p.parse_args()


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    probs = torch.tensor([0.70, 0.27, 0.03])
    y = torch.multinomial(probs, n, replacement=True, generator=g)
    centers = torch.randn(3, 128, generator=torch.Generator().manual_seed(7)) * 0.35
    x = centers[y] + torch.randn(n, 128, generator=g)
    return TensorDataset(x, y)


def balanced_accuracy(model, dl):
    model.eval()
    conf = torch.zeros(3, 3)
    with torch.no_grad():
        for xb, yb in dl:
            pred = model(xb).argmax(1)
            for t, p in zip(yb, pred):
                conf[t, p] += 1
    recall = conf.diag() / conf.sum(1).clamp(min=1)
    return recall.mean().item(), recall.tolist()


def main():
    args = parse()
    torch.manual_seed(0)
    train_ds, val_ds = make_data(20000, 1), make_data(4000, 2)
    labels = train_ds.tensors[1]
    counts = Counter(labels.tolist())
    print("train class counts:", dict(sorted(counts.items())))

    sampler = None
    if not args.no_balance:
        class_w = {c: 1.0 / n for c, n in counts.items()}
        sample_w = torch.tensor([class_w[int(c)] for c in labels], dtype=torch.double)
        sampler = WeightedRandomSampler(sample_w, num_samples=len(sample_w), replacement=True)

    train_dl = DataLoader(train_ds, batch_size=args.bs, shuffle=True, sampler=sampler,
                          drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = nn.Sequential(nn.Linear(128, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 3))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        seen = Counter()
        for xb, yb in train_dl:
            loss = crit(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen.update(yb.tolist())
        bacc, rec = balanced_accuracy(model, val_dl)
        print(f"epoch {epoch} loss {loss.item():.4f} bal_acc {bacc:.4f} "
              f"recall {[round(r, 3) for r in rec]} batch mix {dict(sorted(seen.items()))}")


if __name__ == "__main__":
    main()
