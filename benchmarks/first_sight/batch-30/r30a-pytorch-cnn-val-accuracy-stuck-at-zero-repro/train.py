"""Wafer-map defect classifier (10 defect patterns) - small CNN, 16x16 maps."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES, SIZE = 10, 16


def make_wafers(n, protos, gen):
    y = torch.randint(0, N_CLASSES, (n,), generator=gen)
    x = protos[y] + 0.9 * torch.randn(n, 1, SIZE, SIZE, generator=gen)
    shifts = torch.randint(-2, 3, (n, 2), generator=gen)
    x = torch.stack([torch.roll(img, tuple(s.tolist()), dims=(1, 2)) for img, s in zip(x, shifts)])
    return x, y


class DefectCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.bn1, self.bn2 = nn.BatchNorm2d(32), nn.BatchNorm2d(64)
        self.fc = nn.Linear(64 * 4 * 4, N_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.c1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.c2(x))), 2)
        return self.fc(x.flatten(1))


def evaluate(model, loader):
    model.eval()
    correct = n = 0
    with torch.no_grad():
        for x, y in loader:
            preds = model(x).argmax()
            correct += (preds == y).sum().item()
            n += len(y)
    model.train()
    return correct / n


def main():
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    protos = (torch.rand(N_CLASSES, 1, SIZE, SIZE, generator=gen) > 0.7).float() * 2.0
    x_tr, y_tr = make_wafers(12000, protos, gen)
    x_va, y_va = make_wafers(2000, protos, gen)
    train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=128, shuffle=True)
    val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=256)

    model = DefectCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6 * len(train_dl))
    print(f"torch {torch.__version__} | train {len(x_tr)} val {len(x_va)} | {N_CLASSES} classes")
    best = 0.0
    for epoch in range(1, 7):
        t0, run_loss, run_correct, seen = time.time(), 0.0, 0, 0
        for x, y in train_dl:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            run_loss += loss.item() * len(y)
            run_correct += (logits.argmax(1) == y).sum().item()
            seen += len(y)
        val_acc = evaluate(model, val_dl)
        if val_acc > best:
            best = val_acc
            torch.save(model.state_dict(), "best_defect_cnn.pt")
        print(f"epoch {epoch} | train_loss {run_loss / seen:.4f} | train_acc {run_correct / seen:.4f} "
              f"| val_acc {val_acc:.4f} | best {best:.4f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
