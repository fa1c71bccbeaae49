"""Meter-reading digit classifier (16x16 grayscale crops, 10 classes).

Small CNN, AdamW + one-cycle learning-rate schedule (super-convergence recipe),
best checkpoint written at the end of training.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)

N_IMAGES = 6_000
BATCH_SIZE = 128
EPOCHS = 6
MAX_LR = 3e-3


def make_digit_crops(n):
    """Stand-in for the labelled crops: each class is a noisy template with random shifts."""
    templates = torch.rand(10, 1, 16, 16).round()
    y = torch.randint(0, 10, (n,))
    x = templates[y]
    shifts = torch.randint(-2, 3, (n, 2))
    x = torch.stack([torch.roll(img, tuple(s.tolist()), dims=(1, 2)) for img, s in zip(x, shifts)])
    x = x * (0.6 + 0.4 * torch.rand(n, 1, 1, 1)) + 0.35 * torch.randn_like(x)
    return x, y


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def main():
    x, y = make_digit_crops(N_IMAGES)
    train_ds, val_ds = random_split(TensorDataset(x, y), [0.85, 0.15],
                                    generator=torch.Generator().manual_seed(0))
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = DigitNet()
    opt = torch.optim.AdamW(model.parameters(), lr=MAX_LR, weight_decay=1e-4)
    steps_per_epoch = len(train_ds) // BATCH_SIZE
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=MAX_LR, epochs=EPOCHS,
                                                steps_per_epoch=steps_per_epoch)
    print(f"train {len(train_ds)} / val {len(val_ds)} crops, {steps_per_epoch} steps per epoch")

    best_acc, best_state = 0.0, None
    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        total = 0.0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(xb)
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(xb).argmax(1) == yb).sum().item()
        acc = correct / len(val_ds)
        print(f"epoch {epoch + 1}/{EPOCHS} train loss {total / len(train_ds):.4f} "
              f"val acc {acc:.4f} lr {sched.get_last_lr()[0]:.2e} ({time.time() - t0:.1f}s)",
              flush=True)
        if acc > best_acc:
            best_acc, best_state = acc, {k: v.clone() for k, v in model.state_dict().items()}

    torch.save(best_state, "/tmp/meter_digits_best.pt")
    print(f"saved best model (val acc {best_acc:.4f})")


if __name__ == "__main__":
    main()
