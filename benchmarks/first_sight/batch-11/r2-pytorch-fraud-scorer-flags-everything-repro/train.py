"""Card-fraud classifier: MLP on 12 transaction features, then the scoring helpers used by
the nightly batch report and by the live API."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

THRESHOLD = 0.5
FEATURES = ["amount_z", "hour_sin", "hour_cos", "merchant_risk", "country_mismatch", "card_age",
            "tx_last_1h", "tx_last_24h", "avg_amount_30d", "online", "new_device", "velocity"]


def make_transactions(n, seed, fraud_rate=0.04):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < fraud_rate).astype(np.int64)
    x = rng.normal(0, 1, (n, len(FEATURES)))
    x[y == 1, 0] += 2.0     # larger amounts
    x[y == 1, 3] += 1.5     # riskier merchants
    x[y == 1, 4] += 1.8     # card country != merchant country
    x[y == 1, 10] += 1.2    # new device
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y)


class FraudNet(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        return self.net(x)


@torch.no_grad()
def fraud_probability(model, x):
    """P(fraud) for a batch of transactions (or a single one, shape (1, d))."""
    model.eval()
    probs = F.softmax(model(x), dim=0)
    return probs[:, 1]


def main():
    torch.manual_seed(0)
    x_tr, y_tr = make_transactions(40_000, seed=1)
    x_va, y_va = make_transactions(8_000, seed=2)
    print(f"train: {len(y_tr)} tx ({y_tr.float().mean():.2%} fraud)  val: {len(y_va)} tx", flush=True)

    model = FraudNet(len(FEATURES))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    weight = torch.tensor([1.0, 5.0])  # fraud is rare
    dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=256, shuffle=True)
    for epoch in range(5):
        model.train()
        for xb, yb in dl:
            loss = F.cross_entropy(model(xb), yb, weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(x_va).argmax(1)
        tp = ((pred == 1) & (y_va == 1)).sum().item()
        prec = tp / max((pred == 1).sum().item(), 1)
        rec = tp / max((y_va == 1).sum().item(), 1)
        acc = (pred == y_va).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.4f} precision {prec:.3f} recall {rec:.3f}")
    torch.save(model.state_dict(), "/tmp/fraudnet.pt")

    # nightly report: yesterday's transactions scored in chunks of 500
    x_day, y_day = make_transactions(5_000, seed=3)
    p_day = torch.cat([fraud_probability(model, x_day[i:i + 500]) for i in range(0, 5_000, 500)])
    flagged = p_day > THRESHOLD
    print(f"batch report: {flagged.sum().item()} of {len(p_day)} flagged "
          f"(actual fraud {y_day.sum().item()}), mean P(fraud)={p_day.mean():.4f}")

    # live API: one transaction per request
    x_live, y_live = make_transactions(300, seed=4)
    p_live = torch.cat([fraud_probability(model, x_live[i:i + 1]) for i in range(len(x_live))])
    print(f"live API: {(p_live > THRESHOLD).sum().item()} of {len(p_live)} flagged "
          f"(actual fraud {y_live.sum().item()}), mean P(fraud)={p_live.mean():.4f}")
    for i in range(5):
        print(f"  tx {i}: label={y_live[i].item()} P(fraud)={p_live[i]:.4f}")


if __name__ == "__main__":
    main()
