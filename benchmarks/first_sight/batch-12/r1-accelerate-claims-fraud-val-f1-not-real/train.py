"""Insurance-claim fraud classifier (tabular MLP, accelerate).

Fraud is ~4% of claims, so the fraud rows are oversampled to balance the classes.
The model is picked on validation F1; last month's claims (labelled by the
investigators afterwards) are the final check before deployment.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, random_split
from accelerate import Accelerator
from accelerate.utils import set_seed

set_seed(0)
D = 20


def load_claims(n, seed):
    """Stand-in for the claims warehouse export: 20 numeric features, ~4% fraud, heavy overlap."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.04).astype(np.int64)
    X = rng.normal(0, 1, (n, D)).astype(np.float32)
    X[y == 1, :4] += 0.8                      # fraud shifts a few features a little
    X[:, 4:8] += 0.5 * rng.normal(0, 1, (n, 1)).astype(np.float32)
    return X, y


def oversample(X, y, factor, rng):
    pos = np.where(y == 1)[0]
    extra = rng.choice(pos, size=len(pos) * (factor - 1), replace=True)
    idx = np.concatenate([np.arange(len(y)), extra])
    return X[idx], y[idx]


def f1_report(pred, y):
    tp = int(((pred == 1) & (y == 1)).sum()); fp = int(((pred == 1) & (y == 0)).sum())
    fn = int(((pred == 0) & (y == 1)).sum())
    prec = tp / max(tp + fp, 1); rec = tp / max(tp + fn, 1)
    return prec, rec, 2 * prec * rec / max(prec + rec, 1e-9)


def main():
    accelerator = Accelerator()
    X, y = load_claims(12000, seed=0)
    X, y = oversample(X, y, factor=12, rng=np.random.default_rng(0))
    full = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
    train_ds, val_ds = random_split(full, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
    accelerator.print(f"after balancing: {len(full)} rows, fraud share {y.mean():.2f}; train {len(train_ds)} / val {len(val_ds)}")

    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1024)
    model = nn.Sequential(nn.Linear(D, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)

    best_f1, best_state = -1.0, None
    for epoch in range(12):
        model.train()
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            optimizer.zero_grad(); accelerator.backward(loss); optimizer.step()
        model.eval()
        preds, labels = [], []
        with torch.no_grad():
            for xb, yb in val_dl:
                p, l = accelerator.gather_for_metrics((model(xb).argmax(1), yb))
                preds.append(p); labels.append(l)
        prec, rec, f1 = f1_report(torch.cat(preds), torch.cat(labels))
        accelerator.print(f"epoch {epoch:2d} train_loss {loss.item():.4f}  val fraud precision {prec:.3f} recall {rec:.3f} F1 {f1:.3f}")
        if f1 > best_f1:
            best_f1 = f1
            best_state = {k: v.detach().clone() for k, v in accelerator.unwrap_model(model).state_dict().items()}

    accelerator.print(f"best val F1 {best_f1:.3f}")
    final = accelerator.unwrap_model(model)
    final.load_state_dict(best_state)
    Xh, yh = load_claims(6000, seed=1)               # last month, labelled after investigation
    with torch.no_grad():
        ph = final(torch.from_numpy(Xh).to(accelerator.device)).argmax(1).cpu()
    prec, rec, f1 = f1_report(ph, torch.from_numpy(yh))
    accelerator.print(f"last-month claims: {len(yh)} rows, {int(yh.sum())} fraud -> precision {prec:.3f} recall {rec:.3f} F1 {f1:.3f}")


if __name__ == "__main__":
    main()
