import math
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

CFG = dict(
    epochs=8,
    micro_batch=32,
    grad_accum=4,
    max_lr=3e-3,
    weight_decay=0.01,
    seq_len=32,
    vocab=64,
)

torch.manual_seed(0)


def make_data(n):
    x = torch.randint(1, CFG["vocab"], (n, CFG["seq_len"]))
    y = ((x % 7 == 0).sum(1) > CFG["seq_len"] / 7).long()
    return TensorDataset(x, y)


class TinyEncoder(nn.Module):
    def __init__(self, vocab, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(1, CFG["seq_len"], d))
        layer = nn.TransformerEncoderLayer(d, 4, 128, dropout=0.1, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(d, 2)

    def forward(self, x):
        h = self.enc(self.emb(x) + self.pos)
        return self.head(h.mean(1))


def main():
    train_ds, val_ds = make_data(4096), make_data(1024)
    train_loader = DataLoader(train_ds, batch_size=CFG["micro_batch"], shuffle=True, drop_last=True)
    val_loader = DataLoader(val_ds, batch_size=256)

    model = TinyEncoder(CFG["vocab"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=CFG["max_lr"],
                                  weight_decay=CFG["weight_decay"])
    updates_per_epoch = math.ceil(len(train_loader) / CFG["grad_accum"])
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=CFG["max_lr"], epochs=CFG["epochs"], steps_per_epoch=updates_per_epoch,
        pct_start=0.1)
    print(f"config: {CFG}")
    print(f"micro-batches/epoch={len(train_loader)} optimizer updates/epoch={updates_per_epoch} "
          f"effective batch={CFG['micro_batch'] * CFG['grad_accum']}")

    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(CFG["epochs"]):
        model.train()
        t0 = time.time()
        running = 0.0
        for i, (x, y) in enumerate(train_loader):
            loss = loss_fn(model(x), y) / CFG["grad_accum"]
            loss.backward()
            running += loss.item()
            if (i + 1) % CFG["grad_accum"] == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                optimizer.zero_grad()
            scheduler.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val_loader:
                correct += (model(x).argmax(1) == y).sum().item()
        print(f"epoch {epoch} train_loss {running / updates_per_epoch:.4f} "
              f"val_acc {correct / len(val_ds):.4f} lr {scheduler.get_last_lr()[0]:.2e} "
              f"({time.time() - t0:.1f}s)", flush=True)
    torch.save(model.state_dict(), "encoder.pt")


if __name__ == "__main__":
    main()
