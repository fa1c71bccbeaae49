"""Network-intrusion classifier (5 traffic classes) on flow features, trained with Accelerate.

Classes are very imbalanced, so the cross-entropy is weighted by inverse class frequency.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

CLASSES = ["benign", "dos", "probe", "r2l", "u2r"]
N_FEAT = 41
BATCH = 512


def make_flows(n=30_000, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.multinomial(torch.tensor([0.6, 0.2, 0.1, 0.07, 0.03]), n, replacement=True, generator=g)
    centers = torch.randn(len(CLASSES), N_FEAT, generator=g)
    x = centers[y] + 1.5 * torch.randn(n, N_FEAT, generator=g)
    return x, y


def class_weights(labels, n_classes):
    """Inverse-frequency weights, normalised to mean 1."""
    counts = [0] * n_classes
    for lbl in labels:
        counts[int(lbl)] += 1
    w = torch.tensor([len(labels) / (n_classes * max(c, 1)) for c in counts])
    return w / w.mean()


def compute_loss(logits, targets, train_labels):
    criterion = nn.CrossEntropyLoss(weight=class_weights(train_labels, len(CLASSES)))
    return criterion(logits, targets)


def main():
    accelerator = Accelerator()
    torch.manual_seed(0)
    x, y = make_flows()
    n_val = 5_000
    train_labels = y[n_val:]
    train_dl = DataLoader(TensorDataset(x[n_val:], train_labels), batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[:n_val], y[:n_val]), batch_size=2048)
    model = nn.Sequential(nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
                          nn.Linear(64, len(CLASSES)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)
    accelerator.print(f"{len(train_dl.dataset)} flows, batch {BATCH}, {len(train_dl)} steps/epoch")

    for epoch in range(2):
        model.train()
        cm = torch.zeros(len(CLASSES), len(CLASSES), dtype=torch.long)
        t0 = time.time()
        for step, (xb, yb) in enumerate(train_dl):
            logits = model(xb)
            loss = compute_loss(logits, yb, train_labels)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            k = len(CLASSES)
            cm += torch.bincount(yb * k + logits.argmax(-1), minlength=k * k).view(k, k)
            if step % 10 == 0:
                accelerator.print(f"  epoch {epoch} step {step:3d} loss {loss.item():.4f} "
                                  f"{(step + 1) * BATCH / (time.time() - t0):.0f} flows/s")
        recall = (cm.diag() / cm.sum(1).clamp(min=1)).tolist()
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(xb).argmax(-1) == yb).sum().item()
        accelerator.print(f"epoch {epoch}: train recall " +
                          " ".join(f"{c}={r:.2f}" for c, r in zip(CLASSES, recall)) +
                          f" | val acc {correct / n_val:.4f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
