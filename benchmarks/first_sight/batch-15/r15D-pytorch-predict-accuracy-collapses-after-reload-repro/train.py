import argparse
import csv
import os

import numpy as np
import torch
import torch.nn as nn

SPECIES = ["setosa_a", "setosa_b", "versicolor", "virginica", "hybrid_x", "hybrid_y"]
N_FEAT = 12


def generate_csv(path, n, seed):
    rng = np.random.default_rng(seed)
    centers = np.random.default_rng(123).normal(0, 0.8, size=(len(SPECIES), N_FEAT))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([f"f{i}" for i in range(N_FEAT)] + ["species"])
        for _ in range(n):
            k = rng.integers(len(SPECIES))
            x = centers[k] + rng.normal(0, 1.0, N_FEAT)
            w.writerow([f"{v:.4f}" for v in x] + [SPECIES[k]])


def load_csv(path):
    feats, labels = [], []
    with open(path) as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            feats.append([float(v) for v in row[:-1]])
            labels.append(row[-1])
    return np.array(feats, dtype=np.float32), labels


def build_label_map(labels):
    names = list(set(labels))
    return names, {n: i for i, n in enumerate(names)}


def make_model(n_classes):
    return nn.Sequential(
        nn.Linear(N_FEAT, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, n_classes)
    )


def train(args):
    x, labels = load_csv(args.train_csv)
    names, label2id = build_label_map(labels)
    y = torch.tensor([label2id[l] for l in labels])
    x = torch.from_numpy(x)
    mean, std = x.mean(0), x.std(0)
    x = (x - mean) / std

    n_val = len(x) // 5
    xv, yv, xt, yt = x[:n_val], y[:n_val], x[n_val:], y[n_val:]
    model = make_model(len(names))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(15):
        model.train()
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), 64):
            idx = perm[i:i + 64]
            loss = loss_fn(model(xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(xv).argmax(1) == yv).float().mean().item()
        if epoch % 3 == 2 or epoch == 14:
            print(f"epoch {epoch:2d} train loss {loss.item():.4f} val acc {acc:.4f}")
    torch.save({"model": model.state_dict(), "mean": mean, "std": std}, args.ckpt)
    print(f"saved {args.ckpt}")


def predict(args):
    _, train_labels = load_csv(args.train_csv)
    names, _ = build_label_map(train_labels)
    ckpt = torch.load(args.ckpt)
    model = make_model(len(names))
    model.load_state_dict(ckpt["model"])
    model.eval()

    x, labels = load_csv(args.test_csv)
    x = (torch.from_numpy(x) - ckpt["mean"]) / ckpt["std"]
    with torch.no_grad():
        pred = model(x).argmax(1).tolist()
    pred_names = [names[p] for p in pred]
    acc = np.mean([p == t for p, t in zip(pred_names, labels)])
    print(f"test samples: {len(labels)}  accuracy: {acc:.4f}")
    for p, t in list(zip(pred_names, labels))[:8]:
        print(f"  predicted={p:12s} true={t}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["train", "predict"])
    ap.add_argument("--train-csv", default="data/train.csv")
    ap.add_argument("--test-csv", default="data/test.csv")
    ap.add_argument("--ckpt", default="species_mlp.pt")
    args = ap.parse_args()
    if not os.path.exists(args.train_csv):
        os.makedirs(os.path.dirname(args.train_csv), exist_ok=True)
        generate_csv(args.train_csv, 6000, seed=1)
        generate_csv(args.test_csv, 1500, seed=2)
    print(f"torch {torch.__version__} | mode={args.mode}")
    train(args) if args.mode == "train" else predict(args)
