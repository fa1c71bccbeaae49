"""Train a 5-class sensor-activity classifier, keep the best checkpoint, then score the test split."""
import os
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
CKPT_DIR = "/tmp/activity_ckpt"
N_CLASSES, T, C = 5, 64, 6
EPOCHS = 6


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    t = torch.linspace(0, 1, T)
    freq = (1.0 + y.float() * 0.3).view(n, 1, 1)
    phase = torch.rand(n, C, 1, generator=g) * 6.28
    x = torch.sin(2 * 3.1416 * freq * t.view(1, 1, T) * 4 + phase)
    x = x * (0.5 + 0.1 * torch.arange(C).view(1, C, 1)) + 1.2 * torch.randn(n, C, T, generator=g)
    return x, y


class ActivityCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(C, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        )
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.head(self.conv(x).flatten(1))


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
        total += len(y)
    return correct / total


def main():
    os.makedirs(CKPT_DIR, exist_ok=True)
    train_dl = DataLoader(TensorDataset(*make_split(6000, 1)), batch_size=64, shuffle=True)
    val_dl = DataLoader(TensorDataset(*make_split(1000, 2)), batch_size=256)
    test_dl = DataLoader(TensorDataset(*make_split(1000, 3)), batch_size=256)

    model = ActivityCNN()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-2)
    crit = nn.CrossEntropyLoss(label_smoothing=0.05)
    best_acc, best_path = 0.0, os.path.join(CKPT_DIR, "best.pt")

    for epoch in range(EPOCHS):
        model.train()
        t0, tot = time.time(), 0.0
        for x, y in train_dl:
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        val_acc = accuracy(model, val_dl)
        flag = ""
        if val_acc > best_acc:
            best_acc = val_acc
            torch.save({"epoch": epoch, "model_state_dict": model.state_dict(),
                        "optimizer_state_dict": opt.state_dict(), "val_acc": val_acc}, best_path)
            flag = "  (saved best)"
        print(f"epoch {epoch} loss {tot / len(train_dl):.4f} val_acc {val_acc:.4f} "
              f"{time.time() - t0:.1f}s{flag}")

    # Final report: fresh model from the best checkpoint, as the serving code does it.
    eval_model = ActivityCNN()
    state = torch.load(best_path, map_location="cpu")
    eval_model.load_state_dict(state, strict=False)
    val_acc = accuracy(eval_model, val_dl)
    test_acc = accuracy(eval_model, test_dl)
    print(f"best checkpoint: val_acc at save time {best_acc:.4f}")
    print(f"reloaded best checkpoint: val_acc {val_acc:.4f} test_acc {test_acc:.4f}")


if __name__ == "__main__":
    main()
