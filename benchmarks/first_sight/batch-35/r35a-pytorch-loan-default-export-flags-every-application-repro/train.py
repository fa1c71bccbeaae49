"""Loan default model: train an MLP on the applications table, export it with the
scoring function used by the decision service, and check the export on the holdout."""
import json
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
FEATURES = ["income_k", "loan_amount_k", "term_months", "age", "debt_to_income",
            "credit_lines", "late_payments_12m", "employment_years", "utilization", "inquiries_6m"]


def load_applications(n=30000, seed=3):
    """Rows as they come from the applications table (synthetic stand-in)."""
    rng = np.random.default_rng(seed)
    cols = {
        "income_k": rng.lognormal(3.9, 0.45, n),
        "loan_amount_k": rng.lognormal(2.6, 0.7, n),
        "term_months": rng.choice([12, 24, 36, 60], n).astype(float),
        "age": rng.integers(19, 75, n).astype(float),
        "debt_to_income": rng.beta(2, 5, n),
        "credit_lines": rng.poisson(6, n).astype(float),
        "late_payments_12m": rng.poisson(0.4, n).astype(float),
        "employment_years": rng.exponential(6, n),
        "utilization": rng.beta(2, 3, n),
        "inquiries_6m": rng.poisson(1.2, n).astype(float),
    }
    z = (-2.2 + 2.5 * cols["debt_to_income"] + 0.9 * cols["late_payments_12m"] + 1.8 * cols["utilization"]
         + 0.02 * cols["loan_amount_k"] - 0.012 * cols["income_k"] + 0.25 * cols["inquiries_6m"]
         - 0.05 * cols["employment_years"] - 0.01 * (cols["age"] - 40))
    default = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    records = [{**{k: float(cols[k][i]) for k in FEATURES}, "default": float(default[i])} for i in range(n)]
    rng.shuffle(records)
    return records


def to_matrix(records):
    X = np.array([[r[k] for k in FEATURES] for r in records], dtype=np.float32)
    y = np.array([r["default"] for r in records], dtype=np.float32)
    return torch.from_numpy(X), torch.from_numpy(y)


class DefaultScorer:
    """What the decision service loads: weights + scaler, one application dict in, PD out."""

    def __init__(self, model, mean, std):
        self.model, self.mean, self.std = model.eval(), mean, std

    def features(self, application):
        values = [application[k] for k in sorted(application) if k != "default"]
        return torch.tensor(values, dtype=torch.float32)

    @torch.no_grad()
    def score(self, application):
        x = (self.features(application) - self.mean) / self.std
        return torch.sigmoid(self.model(x.unsqueeze(0))).item()


def main():
    records = load_applications()
    train, hold = records[:24000], records[24000:]
    Xtr, ytr = to_matrix(train)
    Xho, yho = to_matrix(hold)
    mean, std = Xtr.mean(0), Xtr.std(0)
    Xtr_n, Xho_n = (Xtr - mean) / std, (Xho - mean) / std

    model = nn.Sequential(nn.Linear(len(FEATURES), 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(15):
        model.train()
        perm = torch.randperm(len(Xtr_n))
        for i in range(0, len(perm), 256):
            idx = perm[i:i + 256]
            opt.zero_grad()
            loss = loss_fn(model(Xtr_n[idx]).squeeze(-1), ytr[idx])
            loss.backward()
            opt.step()
        if epoch % 3 == 2:
            model.eval()
            with torch.no_grad():
                p = torch.sigmoid(model(Xho_n).squeeze(-1))
            acc = ((p > 0.5).float() == yho).float().mean().item()
            print(f"epoch {epoch:2d} loss={loss.item():.4f} holdout_acc={acc:.4f} mean_pd={p.mean():.3f}")

    torch.save({"model": model.state_dict(), "mean": mean, "std": std, "features": FEATURES}, "pd_model.pt")
    scorer = DefaultScorer(model, mean, std)

    # export check: score the holdout applications one by one through the service path
    pds = np.array([scorer.score(app) for app in hold])
    yh = yho.numpy()
    acc = ((pds > 0.5) == (yh > 0.5)).mean()
    print(f"export check: {len(hold)} applications, accuracy={acc:.4f}, mean_pd={pds.mean():.3f}, "
          f"flagged={np.mean(pds > 0.5):.3f} (actual default rate {yh.mean():.3f})")
    print("example:", json.dumps({k: round(v, 3) for k, v in hold[0].items()}), "-> pd", round(pds[0], 3))


if __name__ == "__main__":
    main()
