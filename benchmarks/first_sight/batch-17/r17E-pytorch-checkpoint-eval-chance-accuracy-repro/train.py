"""Train an MLP classifier, checkpoint the best epoch, then reload it for the final test report."""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CKPT = os.path.join(tempfile.gettempdir(), "mlp_ckpt", "best.pt")
torch.manual_seed(0)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(10, 32, generator=torch.Generator().manual_seed(42)) * 2.0
    y = torch.randint(0, 10, (n,), generator=g)
    x = centers[y] + torch.randn(n, 32, generator=g) * 4.0
    return TensorDataset(x, y)


class Classifier(nn.Module):
    def __init__(self, d_in=32, hidden=128, n_cls=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                 nn.Dropout(0.1), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, n_cls))

    def forward(self, x):
        return self.net(x)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct, total, loss = 0, 0, 0.0
    for x, y in loader:
        logits = model(x)
        loss += F.cross_entropy(logits, y, reduction="sum").item()
        correct += (logits.argmax(-1) == y).sum().item()
        total += y.numel()
    return loss / total, correct / total


def main():
    train_dl = DataLoader(make_data(10000, 1), batch_size=128, shuffle=True)
    val_dl = DataLoader(make_data(2000, 2), batch_size=512)
    test_dl = DataLoader(make_data(2000, 3), batch_size=512)

    model = Classifier()
    model = nn.DataParallel(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)

    best_acc = 0.0
    os.makedirs(os.path.dirname(CKPT), exist_ok=True)
    for epoch in range(6):
        model.train()
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        val_loss, val_acc = evaluate(model, val_dl)
        print(f"epoch {epoch} train_loss {loss.item():.4f} val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
        if val_acc > best_acc:
            best_acc = val_acc
            torch.save({"epoch": epoch, "model": model.state_dict(), "val_acc": val_acc}, CKPT)
            print(f"  saved checkpoint (val_acc={val_acc:.4f})")

    # ---- final report: load best checkpoint into a fresh model -----
    ckpt = torch.load(CKPT, map_location="cpu")
    best = Classifier()
    best.load_state_dict(ckpt["model"], strict=False)
    print(f"loaded checkpoint from epoch {ckpt['epoch']} (val_acc at save time {ckpt['val_acc']:.4f})")
    val_loss, val_acc = evaluate(best, val_dl)
    test_loss, test_acc = evaluate(best, test_dl)
    print(f"reloaded model: val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
    print(f"reloaded model: test_loss {test_loss:.4f} test_acc {test_acc:.4f}")


if __name__ == "__main__":
    main()
