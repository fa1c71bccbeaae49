"""Churn model: join monthly usage sessions with invoices, aggregate per user, train an MLP."""
import resource
import time

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

# keep the shared box alive: cap this job's address space at 4 GiB
resource.setrlimit(resource.RLIMIT_AS, (4 * 1024**3, 4 * 1024**3))

rng = np.random.default_rng(0)
N_USERS, N_MONTHS, SESS_PER_MONTH = 20_000, 12, 30


def load_tables():
    users = pd.DataFrame({
        "user_id": np.arange(N_USERS),
        "plan": rng.integers(0, 3, N_USERS),
        "tenure_m": rng.integers(1, 60, N_USERS),
    })
    n_sess = N_USERS * N_MONTHS * SESS_PER_MONTH
    sessions = pd.DataFrame({
        "user_id": np.repeat(np.arange(N_USERS), N_MONTHS * SESS_PER_MONTH),
        "month": np.tile(np.repeat(np.arange(N_MONTHS), SESS_PER_MONTH), N_USERS),
        "minutes": rng.gamma(2.0, 15.0, n_sess).astype("float32"),
        "errors": rng.poisson(0.3, n_sess).astype("int16"),
    })
    invoices = pd.DataFrame({
        "user_id": np.repeat(np.arange(N_USERS), N_MONTHS),
        "month": np.tile(np.arange(N_MONTHS), N_USERS),
        "amount": rng.normal(30, 8, N_USERS * N_MONTHS).astype("float32"),
        "late": rng.random(N_USERS * N_MONTHS) < 0.1,
    })
    return users, sessions, invoices


def build_features(users, sessions, invoices):
    t0 = time.time()
    usage = sessions.merge(invoices, on="user_id", suffixes=("", "_inv"))
    print(f"joined usage x invoices: {len(usage):,} rows in {time.time() - t0:.1f}s", flush=True)
    usage["cost_per_min"] = usage["amount"] / (usage["minutes"] + 1.0)
    agg = usage.groupby("user_id").agg(
        minutes=("minutes", "mean"), errors=("errors", "mean"),
        amount=("amount", "mean"), late=("late", "mean"),
        cost_per_min=("cost_per_min", "median"),
    ).reset_index()
    feats = users.merge(agg, on="user_id")
    churn_logit = -1.5 + 2.0 * feats["late"] * 5 - 0.02 * feats["tenure_m"] + 0.3 * feats["errors"]
    feats["churned"] = rng.random(len(feats)) < 1 / (1 + np.exp(-churn_logit))
    return feats


def main():
    users, sessions, invoices = load_tables()
    print(f"users={len(users):,} sessions={len(sessions):,} invoices={len(invoices):,}", flush=True)
    feats = build_features(users, sessions, invoices)
    cols = ["plan", "tenure_m", "minutes", "errors", "amount", "late", "cost_per_min"]
    X = torch.tensor(feats[cols].to_numpy(dtype=np.float32))
    X = (X - X.mean(0)) / (X.std(0) + 1e-6)
    y = torch.tensor(feats["churned"].to_numpy(dtype=np.float32))
    n_tr = int(0.8 * len(X))
    model = nn.Sequential(nn.Linear(len(cols), 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lossf = nn.BCEWithLogitsLoss()
    for epoch in range(5):
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, 256):
            idx = perm[i:i + 256]
            loss = lossf(model(X[idx]).squeeze(1), y[idx])
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            p = model(X[n_tr:]).squeeze(1) > 0
            acc = (p.float() == y[n_tr:]).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.3f}", flush=True)


if __name__ == "__main__":
    main()
