"""Churn-risk scorer: residual MLP over account features, trained with accelerate (CPU box)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

CFG = dict(n_features=40, hidden=256, blocks=3, dropout=0.3, lr=1e-3, epochs=6, batch_size=128, seed=42)


def make_accounts(n, rng):
    X = rng.normal(size=(n, CFG["n_features"])).astype(np.float32)
    w = rng.normal(size=CFG["n_features"]) / 3
    score = X @ w + 0.8 * np.sin(2 * X[:, 0]) * X[:, 1] + 0.6 * (X[:, 2] > 0.5) * X[:, 3]
    y = (score + rng.normal(scale=0.5, size=n) > 0).astype(np.int64)
    return X, y


class ResBlock(nn.Module):
    def __init__(self, d, p):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)
        self.p = p

    def forward(self, x):
        h = F.gelu(self.fc1(self.norm(x)))
        h = F.dropout(h, p=self.p)
        return x + self.fc2(h)


class ChurnNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(CFG["n_features"], CFG["hidden"])
        self.blocks = nn.ModuleList(ResBlock(CFG["hidden"], CFG["dropout"]) for _ in range(CFG["blocks"]))
        self.out = nn.Linear(CFG["hidden"], 2)

    def forward(self, x):
        h = self.inp(x)
        for b in self.blocks:
            h = b(h)
        return self.out(h)


@torch.no_grad()
def evaluate(model, loader, accelerator):
    model.eval()
    preds, labels = [], []
    for xb, yb in loader:
        logits = model(xb)
        p, l = accelerator.gather_for_metrics((logits.argmax(-1), yb))
        preds.append(p); labels.append(l)
    preds, labels = torch.cat(preds), torch.cat(labels)
    return (preds == labels).float().mean().item(), preds


def main():
    accelerator = Accelerator(cpu=True)
    set_seed(CFG["seed"])
    rng = np.random.default_rng(CFG["seed"])
    X, y = make_accounts(24000, rng)
    Xtr, ytr, Xva, yva = X[:20000], y[:20000], X[20000:], y[20000:]
    train_dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)), batch_size=CFG["batch_size"], shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(Xva), torch.from_numpy(yva)), batch_size=512)

    model = ChurnNet()
    opt = torch.optim.AdamW(model.parameters(), lr=CFG["lr"], weight_decay=1e-4)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)

    best = 0.0
    for epoch in range(CFG["epochs"]):
        model.train()
        tot = 0.0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            tot += loss.item()
        acc, _ = evaluate(model, val_dl, accelerator)
        accelerator.print(f"epoch {epoch} train_loss {tot / len(train_dl):.4f} val_acc {acc:.4f}")
        if acc > best:
            best = acc
            accelerator.save(accelerator.unwrap_model(model).state_dict(), "best.pt")

    # release check: reload best checkpoint, score the validation set twice, compare
    final = ChurnNet()
    final.load_state_dict(torch.load("best.pt"))
    final = accelerator.prepare(final)
    acc1, p1 = evaluate(final, val_dl, accelerator)
    acc2, p2 = evaluate(final, val_dl, accelerator)
    accelerator.print(f"best val_acc during training {best:.4f}")
    accelerator.print(f"reloaded best.pt: run 1 val_acc {acc1:.4f} | run 2 val_acc {acc2:.4f} | "
                      f"predictions that differ between runs: {(p1 != p2).sum().item()} / {len(p1)}")


if __name__ == "__main__":
    main()
