"""Card-transaction fraud model: feature building + MLP (nightly retrain job)."""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SEED = 3
N_ROWS = 400_000
NUMERIC = ["amount", "hour", "days_since_last_txn", "txn_count_24h", "account_age_days"]
CATEGORICAL = ["channel", "country", "mcc", "merchant_id"]

rng = np.random.default_rng(SEED)
torch.manual_seed(SEED)


def load_transactions(n):
    """Stand-in for the warehouse export (same columns and cardinalities)."""
    df = {
        "channel": rng.integers(0, 4, n),
        "country": rng.integers(0, 30, n),
        "mcc": rng.integers(0, 300, n),
        "merchant_id": np.minimum(rng.zipf(1.3, n), 60_000) - 1,
        "amount": rng.lognormal(3.5, 1.2, n),
        "hour": rng.integers(0, 24, n).astype(float),
        "days_since_last_txn": rng.exponential(3.0, n),
        "txn_count_24h": rng.poisson(2.0, n).astype(float),
        "account_age_days": rng.uniform(1, 3000, n),
    }
    risky_merchant = (df["merchant_id"] % 97 == 0)
    logit = (-5 + 1.5 * risky_merchant + 0.8 * (df["channel"] == 3) + 0.4 * np.log1p(df["amount"]) / 3
             + 0.5 * (df["hour"] < 5) - 0.3 * np.log1p(df["account_age_days"]) / 8 + 0.3 * df["txn_count_24h"] / 2)
    df["is_fraud"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return df


def build_features(df, stats=None):
    num = np.stack([np.log1p(df[c]) for c in NUMERIC], 1).astype(np.float32)
    if stats is None:
        stats = {"mean": num.mean(0), "std": num.std(0) + 1e-6,
                 "card": {c: int(df[c].max()) + 1 for c in CATEGORICAL}}
    parts = [torch.from_numpy((num - stats["mean"]) / stats["std"])]
    for c in CATEGORICAL:
        codes = torch.from_numpy(np.clip(df[c], 0, stats["card"][c] - 1)).long()
        parts.append(F.one_hot(codes, num_classes=stats["card"][c]).float())
        print(f"  encoded {c:<12} cardinality={stats['card'][c]}")
    return torch.cat(parts, 1), stats


class FraudMLP(nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    t0 = time.time()
    df = load_transactions(N_ROWS)
    print(f"loaded {N_ROWS} transactions, fraud rate {df['is_fraud'].mean():.4f} ({time.time() - t0:.1f}s)")
    idx = rng.permutation(N_ROWS)
    tr, va = idx[:360_000], idx[360_000:]
    split = lambda ix: {k: v[ix] for k, v in df.items()}
    print("building features ...")
    X_tr, stats = build_features(split(tr))
    X_va, _ = build_features(split(va), stats)
    y_tr, y_va = torch.from_numpy(df["is_fraud"][tr]), torch.from_numpy(df["is_fraud"][va])
    print(f"feature matrix {tuple(X_tr.shape)}")

    model = FraudMLP(X_tr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    pos_w = torch.tensor((1 - y_tr.mean()) / y_tr.mean())
    for epoch in range(3):
        perm = torch.randperm(len(y_tr))
        for i in range(0, len(perm), 2048):
            b = perm[i:i + 2048]
            loss = F.binary_cross_entropy_with_logits(model(X_tr[b]), y_tr[b], pos_weight=pos_w)
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            s = model(X_va)
        order = torch.argsort(s, descending=True)
        top = y_va[order[: int(0.01 * len(order))]].mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} precision@1% {top:.3f} (base rate {y_va.mean().item():.4f})")


if __name__ == "__main__":
    main()
