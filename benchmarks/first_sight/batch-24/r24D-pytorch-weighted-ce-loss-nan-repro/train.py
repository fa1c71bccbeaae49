import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_CLASSES = 6
D_IN = 64
CLASS_FREQ = np.array([0.55, 0.2, 0.1, 0.08, 0.05, 0.02])


class SensorWindows(Dataset):
    """Synthetic stand-in for our vibration windows: class templates + noise, with
    occasional amplitude glitches like the real recorder produces."""

    def __init__(self, n, seed):
        templates = np.random.default_rng(7).normal(0, 1, size=(N_CLASSES, D_IN)).astype(np.float32)
        g = np.random.default_rng(seed)
        self.y = g.choice(N_CLASSES, size=n, p=CLASS_FREQ)
        x = templates[self.y] + g.normal(0, 2.5, size=(n, D_IN)).astype(np.float32)
        glitch = g.random(n) < 0.002
        x[glitch] *= g.uniform(5, 40, size=(glitch.sum(), 1)).astype(np.float32)
        self.x = x

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])


def weighted_cross_entropy(logits, targets, class_weights):
    probs = torch.softmax(logits, dim=-1)
    onehot = F.one_hot(targets, N_CLASSES).float()
    per_sample = -(onehot * torch.log(probs)).sum(dim=-1)
    w = class_weights[targets]
    return (w * per_sample).sum() / w.sum()


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = torch.zeros(N_CLASSES)
    count = torch.zeros(N_CLASSES)
    for xb, yb in loader:
        pred = model(xb).argmax(-1)
        for c in range(N_CLASSES):
            m = yb == c
            count[c] += m.sum()
            correct[c] += (pred[m] == c).sum()
    model.train()
    return (correct.sum() / count.sum()).item(), (correct / count.clamp(min=1)).mean().item()


def main():
    torch.manual_seed(0)
    train_ds = SensorWindows(20000, seed=1)
    val_ds = SensorWindows(4000, seed=2)
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=1000)

    freq = np.bincount(train_ds.y, minlength=N_CLASSES) / len(train_ds)
    class_weights = torch.tensor(1.0 / (freq * N_CLASSES), dtype=torch.float32)
    print(f"torch {torch.__version__} | class weights {[round(float(w), 2) for w in class_weights]}")

    model = nn.Sequential(
        nn.Linear(D_IN, 256), nn.ReLU(),
        nn.Linear(256, 256), nn.ReLU(),
        nn.Linear(256, N_CLASSES),
    )
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=15 * len(train_dl))

    step = 0
    for epoch in range(15):
        t0 = time.time()
        losses, first_bad = [], None
        for xb, yb in train_dl:
            loss = weighted_cross_entropy(model(xb), yb, class_weights)
            opt.zero_grad()
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            losses.append(loss.item())
            if first_bad is None and not math.isfinite(losses[-1]):
                first_bad = step
                print(f"  step {step}: loss={losses[-1]} grad_norm={gn.item()}")
        acc, bal_acc = evaluate(model, val_dl)
        finite = [l for l in losses if math.isfinite(l)]
        print(f"epoch {epoch:2d} | loss {np.mean(losses):.4f} (finite steps {len(finite)}/{len(losses)}) "
              f"| val_acc {acc:.4f} bal_acc {bal_acc:.4f} | lr {sched.get_last_lr()[0]:.2e} | {time.time() - t0:.1f}s")
    torch.save(model.state_dict(), "sensor_mlp.pt")


if __name__ == "__main__":
    main()
