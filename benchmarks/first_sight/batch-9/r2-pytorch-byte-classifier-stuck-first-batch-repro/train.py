"""Byte-level sentiment classifier on product reviews (small transformer encoder)."""
import argparse
import random
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

p = argparse.ArgumentParser()
p.add_argument("--max-len", type=int, default=64)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--lr", type=float, default=3e-4)
p.add_argument("--num-workers", type=int, default=2)
args = p.parse_args()

random.seed(0)
torch.manual_seed(0)

PAD, BOS, EOS = 0, 1, 2
OFFSET = 3


def encode(text: str):
    return [BOS] + [b + OFFSET for b in text.encode("utf-8")] + [EOS]


# ---------------------------------------------------------------- fake review dump
POS = ["absolutely love this blender, it crushes ice in seconds and is easy to clean",
       "great value for the price, the battery lasts all week and charging is quick",
       "the fabric is soft and the colour did not fade after many washes, recommended",
       "arrived early, well packaged, and the instructions were clear and simple"]
NEG = ["stopped working after two weeks and customer support never answered my emails",
       "the lid cracked on the first use and the replacement part costs half the price",
       "much smaller than the pictures suggest and the zipper broke within a month",
       "loud, vibrates across the counter and smells like burning plastic when running"]


def make_reviews(n):
    rows = []
    for _ in range(n):
        label = random.randint(0, 1)
        body = random.choice(POS if label else NEG)
        rating = 4 + random.randint(0, 1) if label else 1 + random.randint(0, 1)
        text = f"[{rating} stars] {body}."
        if random.random() < 0.01:
            text += " Specs: " + " | ".join(f"part {i}: 12V 3.5A 1200W ABS" for i in range(60))
        rows.append((text, label))
    return rows


class ReviewDataset(Dataset):
    def __init__(self, rows, max_len):
        self.rows = rows
        self.max_len = max_len

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, idx):
        # a few scraped reviews are huge (pasted spec sheets etc.), skip those
        while True:
            text, label = self.rows[idx]
            ids = encode(text)
            if len(ids) <= self.max_len:
                break
            idx = random.randrange(len(self.rows))
        return torch.tensor(ids), torch.tensor(label)


def collate(batch):
    seqs, labels = zip(*batch)
    L = max(len(s) for s in seqs)
    x = torch.full((len(seqs), L), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        x[i, :len(s)] = s
    return x, torch.stack(labels)


class Classifier(nn.Module):
    def __init__(self, vocab=256 + OFFSET, d=128, layers=2, heads=4, max_len=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.pos = nn.Embedding(max_len, d)
        enc = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, batch_first=True)
        self.enc = nn.TransformerEncoder(enc, layers)
        self.out = nn.Linear(d, 2)

    def forward(self, x):
        pad = x.eq(PAD)
        h = self.emb(x) + self.pos(torch.arange(x.size(1)))
        h = self.enc(h, src_key_padding_mask=pad)
        h = h.masked_fill(pad.unsqueeze(-1), 0).sum(1) / (~pad).sum(1, keepdim=True)
        return self.out(h)


if __name__ == "__main__":
    rows = make_reviews(5000)
    train_rows, val_rows = rows[:4500], rows[4500:]
    train_ds = ReviewDataset(train_rows, args.max_len)
    val_ds = ReviewDataset(val_rows, args.max_len)
    print(f"train={len(train_ds)} val={len(val_ds)} max_len={args.max_len}")
    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True,
                          num_workers=args.num_workers, collate_fn=collate)
    val_dl = DataLoader(val_ds, batch_size=128, num_workers=args.num_workers, collate_fn=collate)

    model = Classifier()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()
    print(f"model params: {sum(p_.numel() for p_ in model.parameters()):,}")

    for epoch in range(args.epochs):
        print(f"Epoch {epoch + 1}/{args.epochs}", flush=True)
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(train_dl):
            loss = crit(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 20 == 0:
                print(f"  step {step:4d}/{len(train_dl)} loss {loss.item():.4f} "
                      f"({time.time() - t0:.1f}s)", flush=True)
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(xb).argmax(1) == yb).sum().item()
        print(f"  val_acc {correct / len(val_ds):.4f}", flush=True)
