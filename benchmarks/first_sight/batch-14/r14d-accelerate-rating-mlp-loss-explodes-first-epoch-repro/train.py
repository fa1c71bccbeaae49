import copy
import math
import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from accelerate import Accelerator
from accelerate.utils import set_seed

CFG = dict(epochs=6, batch_size=128, lr=1e-3, weight_decay=1e-4,
           find_lr=True, lr_find_start=1e-6, lr_find_end=1.0, lr_find_steps=100)


EMB_DIM = 96


def make_reviews(n, rng, direction):
    """Pre-computed sentence-embedding features of product reviews -> star rating (1-5)."""
    x = rng.normal(size=(n, EMB_DIM))
    score = x @ direction + 0.35 * np.sin(3 * x[:, :4]).sum(1)
    y = np.digitize(score, [-0.9, -0.3, 0.3, 0.9])
    return x.astype(np.float32), y.astype(np.int64)


class RatingHead(nn.Module):
    def __init__(self, d_in, n_classes, hidden=256, p=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.GELU(), nn.Dropout(p),
                                 nn.Linear(hidden, hidden), nn.GELU(), nn.Dropout(p),
                                 nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def lr_range_test(model, optimizer, loader, accelerator, start, end, steps):
    """Exponentially increase the lr, record the smoothed loss, suggest min-loss lr / 10."""
    saved = copy.deepcopy(model.state_dict())
    gamma = (end / start) ** (1 / (steps - 1))
    lrs, losses, avg = [], [], 0.0
    it = iter(loader)
    model.train()
    for i in range(steps):
        lr = start * gamma ** i
        for g in optimizer.param_groups:
            g["lr"] = lr
        try:
            xb, yb = next(it)
        except StopIteration:
            it = iter(loader)
            xb, yb = next(it)
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        accelerator.backward(loss)
        optimizer.step()
        avg = 0.9 * avg + 0.1 * loss.item()
        smooth = avg / (1 - 0.9 ** (i + 1))
        lrs.append(lr)
        losses.append(smooth)
        if i > 10 and smooth > 4 * min(losses):
            break
    model.load_state_dict(saved)
    best = lrs[int(np.argmin(losses))] / 10
    return best, lrs, losses


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    tot, correct, n = 0.0, 0, 0
    for xb, yb in loader:
        out = model(xb)
        tot += F.cross_entropy(out, yb, reduction="sum").item()
        correct += (out.argmax(1) == yb).sum().item()
        n += len(yb)
    return tot / n, correct / n


def main():
    set_seed(42)
    accelerator = Accelerator(cpu=True)
    rng = np.random.default_rng(42)
    direction = rng.normal(size=(EMB_DIM,))
    direction /= np.linalg.norm(direction)
    x_tr, y_tr = make_reviews(40000, rng, direction)
    x_va, y_va = make_reviews(5000, rng, direction)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)),
                          batch_size=CFG["batch_size"], shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(x_va), torch.from_numpy(y_va)), batch_size=1024)

    model = RatingHead(x_tr.shape[1], 5)
    optimizer = torch.optim.AdamW(model.parameters(), lr=CFG["lr"], weight_decay=CFG["weight_decay"])
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)

    if CFG["find_lr"]:
        suggested, lrs, losses = lr_range_test(model, optimizer, train_dl, accelerator,
                                               CFG["lr_find_start"], CFG["lr_find_end"],
                                               CFG["lr_find_steps"])
        for i in range(0, len(lrs), 10):
            accelerator.print(f"  lr_find step {i:3d} lr {lrs[i]:.2e} loss {losses[i]:.4f}")
        accelerator.print(f"lr finder: suggested lr = {suggested:.2e}")
        CFG["lr"] = suggested

    total_steps = CFG["epochs"] * len(train_dl)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=total_steps)
    accelerator.print(f"training with lr={CFG['lr']:.2e}, {total_steps} steps, "
                      f"device={accelerator.device}")

    for epoch in range(1, CFG["epochs"] + 1):
        model.train()
        t0, run, k = time.time(), 0.0, 0
        for step, (xb, yb) in enumerate(train_dl, 1):
            loss = F.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            run += loss.item()
            k += 1
            if step % 100 == 0:
                accelerator.print(f"epoch {epoch} step {step} | loss {run / k:.4f}")
                run, k = 0.0, 0
        vl, va = evaluate(model, val_dl)
        accelerator.print(f"=== epoch {epoch} | val_loss {vl:.4f} | val_acc {va:.4f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
