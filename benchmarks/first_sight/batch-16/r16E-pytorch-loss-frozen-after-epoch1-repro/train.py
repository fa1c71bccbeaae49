import argparse
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from transformers import get_linear_schedule_with_warmup

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=8)
parser.add_argument("--batch_size", type=int, default=64)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--warmup_ratio", type=float, default=0.1)
parser.add_argument("--weight_decay", type=float, default=0.01)
args = parser.parse_args()


def make_dataset(n, n_features=40, n_classes=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    w1 = 0.3 * torch.randn(n_features, 16, generator=torch.Generator().manual_seed(123))
    w2 = torch.randn(16, n_classes, generator=torch.Generator().manual_seed(456))
    x = torch.randn(n, n_features, generator=g)
    y = (torch.tanh(x @ w1) @ w2).argmax(dim=1)
    return TensorDataset(x, y)


class MLP(nn.Module):
    def __init__(self, d_in=40, d_hidden=256, n_classes=6):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, d_hidden), nn.LayerNorm(d_hidden), nn.GELU(), nn.Dropout(0.1),
            nn.Linear(d_hidden, d_hidden), nn.LayerNorm(d_hidden), nn.GELU(), nn.Dropout(0.1),
            nn.Linear(d_hidden, n_classes),
        )

    def forward(self, x):
        return self.net(x)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct, total = 0, 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
        total += len(y)
    model.train()
    return correct / total


def main():
    torch.manual_seed(0)
    train_ds = make_dataset(12000, seed=0)
    val_ds = make_dataset(2000, seed=1)
    train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=512)

    model = MLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    num_training_steps = len(train_loader)
    scheduler = get_linear_schedule_with_warmup(
        optimizer,
        num_warmup_steps=int(args.warmup_ratio * num_training_steps),
        num_training_steps=num_training_steps,
    )
    loss_fn = nn.CrossEntropyLoss()
    print(f"torch {torch.__version__} | train {len(train_ds)} | val {len(val_ds)} | "
          f"epochs {args.epochs} | bs {args.batch_size} | lr {args.lr}")

    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        running = 0.0
        for x, y in train_loader:
            loss = loss_fn(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
            running += loss.item()
        val_acc = evaluate(model, val_loader)
        print(f"epoch {epoch}/{args.epochs} | train_loss {running / len(train_loader):.4f} | "
              f"val_acc {val_acc:.4f} | lr {scheduler.get_last_lr()[0]:.2e} | {time.time() - t0:.1f}s",
              flush=True)


if __name__ == "__main__":
    main()
