import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=4)
parser.add_argument("--resume", action="store_true")
parser.add_argument("--ckpt", default="/tmp/r18e_ckpt/last.pt")
args = parser.parse_args()

torch.manual_seed(0)
NUM_CLASSES, DIM = 10, 40


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(NUM_CLASSES, DIM, generator=torch.Generator().manual_seed(123)) * 0.8
    y = torch.randint(0, NUM_CLASSES, (n,), generator=g)
    x = centers[y] + torch.randn(n, DIM, generator=g) * 3.0
    return TensorDataset(x, y)


train_dl = DataLoader(make_data(10000, 1), batch_size=128, shuffle=True)
val_dl = DataLoader(make_data(4000, 2), batch_size=512)


def build_model():
    return nn.Sequential(nn.Linear(DIM, 256), nn.ReLU(), nn.Dropout(0.1),
                         nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, NUM_CLASSES))


@torch.no_grad()
def evaluate(model):
    model.eval()
    correct, loss = 0, 0.0
    for x, y in val_dl:
        out = model(x)
        loss += nn.functional.cross_entropy(out, y, reduction="sum").item()
        correct += (out.argmax(1) == y).sum().item()
    model.train()
    return loss / len(val_dl.dataset), correct / len(val_dl.dataset)


model = build_model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
start_epoch = 0

if args.resume and os.path.exists(args.ckpt):
    ckpt = torch.load(args.ckpt, map_location="cpu")
    model.load_state_dict(ckpt["model"], strict=False)
    optimizer.load_state_dict(ckpt["optimizer"])
    start_epoch = ckpt["epoch"] + 1
    print(f"resumed from {args.ckpt} (epoch {ckpt['epoch']}, val_acc at save {ckpt['val_acc']:.4f})")
    vl, va = evaluate(model)
    print(f"sanity check after loading: val_loss {vl:.4f} val_acc {va:.4f}")

model = nn.DataParallel(model)

for epoch in range(start_epoch, args.epochs):
    total = 0.0
    for x, y in train_dl:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    vl, va = evaluate(model)
    print(f"epoch {epoch} train_loss {total / len(train_dl):.4f} val_loss {vl:.4f} val_acc {va:.4f}")
    os.makedirs(os.path.dirname(args.ckpt), exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch, "val_acc": va}, args.ckpt)
