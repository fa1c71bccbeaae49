"""Small-data text-feature classifier with early stopping on val accuracy.

Keeps the best weights in memory, restores them at the end, and writes the
final test metrics + model file for the downstream team.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(3)

D, N_CLASSES = 300, 4
N_TRAIN, N_VAL, N_TEST = 600, 1000, 2000
MAX_EPOCHS = 40
PATIENCE = 12
LR = 3e-3


def make_split(n, proto, gen):
    y = torch.randint(0, N_CLASSES, (n,), generator=gen)
    x = proto[y] + 2.0 * torch.randn(n, D, generator=gen)
    flip = torch.rand(n, generator=gen) < 0.15           # annotation noise
    y = torch.where(flip, torch.randint(0, N_CLASSES, (n,), generator=gen), y)
    return x, y


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(D, 512)
        self.fc2 = nn.Linear(512, 512)
        self.out = nn.Linear(512, N_CLASSES)

    def forward(self, x):
        return self.out(F.relu(self.fc2(F.relu(self.fc1(x)))))


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    acc = (model(x).argmax(1) == y).float().mean().item()
    model.train()
    return acc


def main():
    gen = torch.Generator().manual_seed(0)
    proto = 0.25 * torch.randn(N_CLASSES, D, generator=gen)
    xtr, ytr = make_split(N_TRAIN, proto, gen)
    xva, yva = make_split(N_VAL, proto, gen)
    xte, yte = make_split(N_TEST, proto, gen)
    train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=32, shuffle=True)

    model = Classifier()
    opt = torch.optim.Adam(model.parameters(), lr=LR)

    best_acc, best_epoch, best_state = -1.0, -1, None
    bad_epochs = 0
    for epoch in range(MAX_EPOCHS):
        total = 0.0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        val_acc = accuracy(model, xva, yva)
        tag = ""
        if val_acc > best_acc:
            best_acc, best_epoch = val_acc, epoch
            best_state = model.state_dict()
            bad_epochs = 0
            tag = "  *best*"
        else:
            bad_epochs += 1
        print(f"epoch {epoch:2d} train_loss {total / N_TRAIN:.4f} val_acc {val_acc:.4f}{tag}")
        if bad_epochs >= PATIENCE:
            print(f"early stopping at epoch {epoch} (no improvement for {PATIENCE} epochs)")
            break

    model.load_state_dict(best_state)
    print(f"restored best checkpoint from epoch {best_epoch} (val_acc {best_acc:.4f})")
    print(f"restored model: val_acc {accuracy(model, xva, yva):.4f} "
          f"test_acc {accuracy(model, xte, yte):.4f}")
    torch.save(model.state_dict(), "classifier_best.pt")


if __name__ == "__main__":
    main()
