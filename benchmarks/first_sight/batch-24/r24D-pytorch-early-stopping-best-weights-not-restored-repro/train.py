import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_split(n, seed, label_noise=0.25):
    """Small noisy 10-class problem (few labelled rows, like our real one), with a fixed teacher."""
    tg = torch.Generator().manual_seed(7)
    w = torch.randn(30, 10, generator=tg)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 30, generator=g)
    y = (x @ w).argmax(1)
    flip = torch.rand(n, generator=g) < label_noise
    y[flip] = torch.randint(0, 10, (int(flip.sum()),), generator=g)
    return x, y


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    logits = model(x)
    model.train()
    return F.cross_entropy(logits, y).item(), (logits.argmax(1) == y).float().mean().item()


class EarlyStopping:
    def __init__(self, patience):
        self.patience, self.best, self.best_epoch, self.best_state, self.bad = patience, float("inf"), -1, None, 0

    def step(self, val_loss, model, epoch):
        if val_loss < self.best:
            self.best, self.best_epoch, self.bad = val_loss, epoch, 0
            self.best_state = model.state_dict()
            return False
        self.bad += 1
        return self.bad >= self.patience


def main():
    torch.manual_seed(0)
    x_tr, y_tr = make_split(1500, 0)
    x_va, y_va = make_split(1000, 1)
    x_te, y_te = make_split(5000, 2)
    train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True)

    model = nn.Sequential(nn.Linear(30, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    stopper = EarlyStopping(patience=8)
    print(f"torch {torch.__version__} | train {len(x_tr)} val {len(x_va)} test {len(x_te)}")

    for epoch in range(100):
        t0, tot = time.time(), 0.0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
        vl, va = evaluate(model, x_va, y_va)
        print(f"epoch {epoch:3d} | train_loss {tot / len(x_tr):.4f} | val_loss {vl:.4f} | val_acc {va:.4f} | {time.time() - t0:.2f}s")
        if stopper.step(vl, model, epoch):
            print(f"early stopping at epoch {epoch}: best val_loss {stopper.best:.4f} at epoch {stopper.best_epoch}")
            break

    model.load_state_dict(stopper.best_state)
    vl, va = evaluate(model, x_va, y_va)
    tl, ta = evaluate(model, x_te, y_te)
    print(f"restored best weights (epoch {stopper.best_epoch}) | val_loss {vl:.4f} val_acc {va:.4f} "
          f"| test_loss {tl:.4f} test_acc {ta:.4f}")
    torch.save(model.state_dict(), "best_model.pt")


if __name__ == "__main__":
    main()
