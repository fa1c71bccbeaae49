import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CFG = dict(epochs=12, batch_size=128, lr=0.1, momentum=0.9, weight_decay=5e-4,
           lr_decay=0.8, n_classes=16, d_in=32)


def make_data(n, seed):
    """Synthetic multi-class task with a nonlinear (random 2-layer teacher) decision rule."""
    tg = torch.Generator().manual_seed(1234)
    w1 = torch.randn(CFG["d_in"], 64, generator=tg)
    w2 = torch.randn(64, CFG["n_classes"], generator=tg)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, CFG["d_in"], generator=g)
    y = (torch.tanh(x @ w1 / 4) @ w2).argmax(1)
    return x, y


class ResMLP(nn.Module):
    def __init__(self, d_in, width, n_blocks, n_classes):
        super().__init__()
        self.inp = nn.Linear(d_in, width)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(width), nn.Linear(width, width), nn.GELU(), nn.Linear(width, width))
            for _ in range(n_blocks))
        self.out = nn.Sequential(nn.LayerNorm(width), nn.Linear(width, n_classes))

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = h + blk(h)
        return self.out(h)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    loss = correct = n = 0
    for xb, yb in loader:
        logits = model(xb)
        loss += F.cross_entropy(logits, yb, reduction="sum").item()
        correct += (logits.argmax(1) == yb).sum().item()
        n += len(yb)
    model.train()
    return loss / n, correct / n


def main():
    torch.manual_seed(0)
    train_dl = DataLoader(TensorDataset(*make_data(40000, 0)), batch_size=CFG["batch_size"], shuffle=True)
    val_dl = DataLoader(TensorDataset(*make_data(5000, 1)), batch_size=1000)
    model = ResMLP(CFG["d_in"], 128, 3, CFG["n_classes"])
    opt = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=CFG["momentum"],
                          weight_decay=CFG["weight_decay"], nesterov=True)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=CFG["lr_decay"])
    print(f"torch {torch.__version__} | {len(train_dl)} steps/epoch | cfg {CFG}")

    for epoch in range(CFG["epochs"]):
        t0, tot, n = time.time(), 0.0, 0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            scheduler.step()
            tot += loss.item() * len(yb)
            n += len(yb)
        vl, va = evaluate(model, val_dl)
        print(f"epoch {epoch:2d} | train_loss {tot / n:.4f} | val_loss {vl:.4f} | val_acc {va:.4f} "
              f"| lr {opt.param_groups[0]['lr']:.4g} | {time.time() - t0:.1f}s")
    torch.save(model.state_dict(), "resmlp.pt")


if __name__ == "__main__":
    main()
