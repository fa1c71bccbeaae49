"""Small CNN on 28x28 grayscale part-defect images, trained with accelerate (CPU box for now)."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset

NUM_CLASSES = 10
EPOCHS = 4
BATCH = 64
GRAD_ACCUM = 2
LR = 0.02


class DefectImages(Dataset):
    """Synthetic stand-in: each class is a fixed template, samples are shifted + noisy copies."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        templates = torch.randn(NUM_CLASSES, 1, 28, 28, generator=torch.Generator().manual_seed(123))
        templates = F.avg_pool2d(templates, 5, stride=1, padding=2)
        self.y = torch.randint(0, NUM_CLASSES, (n,), generator=g)
        shifts = torch.randint(-3, 4, (n, 2), generator=g)
        imgs = templates[self.y]
        self.x = torch.stack([torch.roll(im, (int(s[0]), int(s[1])), dims=(1, 2)) for im, s in zip(imgs, shifts)])
        self.x = self.x + 0.8 * torch.randn(self.x.shape, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc1 = nn.Linear(64 * 7 * 7, 128)
        self.fc2 = nn.Linear(128, NUM_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.relu(self.fc1(x.flatten(1)))
        return self.fc2(x)


def main():
    set_seed(0)
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=GRAD_ACCUM)
    train_dl = DataLoader(DefectImages(6000, 1), batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(DefectImages(1000, 2), batch_size=256)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, weight_decay=5e-4)
    total_steps = EPOCHS * len(train_dl) // GRAD_ACCUM
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=LR, total_steps=total_steps,
                                                    pct_start=0.1)
    model, optimizer, train_dl, val_dl, scheduler = accelerator.prepare(
        model, optimizer, train_dl, val_dl, scheduler)
    accelerator.print(f"devices={accelerator.device} accum={GRAD_ACCUM} steps={total_steps}")

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        for it, (x, y) in enumerate(train_dl):
            with accelerator.accumulate(model):
                loss = F.cross_entropy(model(x), y)
                accelerator.backward(loss)
                optimizer.step()
                scheduler.step()
            if it % 25 == 0:
                accelerator.print(f"epoch {epoch} it {it:4d} loss {loss.item():.4f} "
                                  f"lr {scheduler.get_last_lr()[0]:.4f}")
        model.eval()
        correct = n = 0
        with torch.no_grad():
            for x, y in val_dl:
                preds = accelerator.gather_for_metrics(model(x).argmax(1))
                correct += (preds == accelerator.gather_for_metrics(y)).sum().item()
                n += len(preds)
        accelerator.print(f"== epoch {epoch} val_acc {correct / n:.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
