"""Support-ticket router: EmbeddingBag bag-of-words classifier over 6 queues.
usage: python train.py --rows N   (default: full export)"""
import argparse
import re
import time
from collections import Counter

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader, random_split

QUEUES = ["billing", "shipping", "returns", "account", "technical", "other"]
KEYWORDS = {
    "billing": ["invoice", "charged", "refund", "payment", "card", "vat"],
    "shipping": ["delivery", "courier", "tracking", "parcel", "late", "address"],
    "returns": ["return", "label", "exchange", "damaged", "size", "warehouse"],
    "account": ["password", "login", "email", "locked", "profile", "delete"],
    "technical": ["app", "crash", "error", "page", "loading", "update"],
    "other": ["question", "feedback", "store", "hours", "job", "partnership"],
}
FILLER = "hi hello please help my order the a is not can you i have with on for thanks".split()
SPLITS = (0.8, 0.1, 0.1)


def load_tickets(n_rows, seed=0):
    """Ticket export (synthetic stand-in with the same queues / vocabulary mix)."""
    g = torch.Generator().manual_seed(seed)
    texts, labels = [], []
    for _ in range(n_rows):
        q = int(torch.randint(0, len(QUEUES), (1,), generator=g))
        kw = KEYWORDS[QUEUES[q]]
        words = [FILLER[int(i)] for i in torch.randint(0, len(FILLER), (12,), generator=g)]
        for _ in range(3):
            words.insert(int(torch.randint(0, len(words), (1,), generator=g)),
                         kw[int(torch.randint(0, len(kw), (1,), generator=g))])
        texts.append(" ".join(words))
        labels.append(q)
    return texts, labels


class TicketDataset(Dataset):
    def __init__(self, texts, labels, vocab):
        self.ids = [torch.tensor([vocab.get(w, 1) for w in re.findall(r"\w+", t.lower())]) for t in texts]
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.ids[i], self.labels[i]


def collate(batch):
    ids = [b[0] for b in batch]
    offsets = torch.tensor([0] + [len(x) for x in ids[:-1]]).cumsum(0)
    return torch.cat(ids), offsets, torch.tensor([b[1] for b in batch])


class BowRouter(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.fc = nn.Linear(dim, len(QUEUES))

    def forward(self, ids, offsets):
        return self.fc(self.emb(ids, offsets))


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for ids, off, y in loader:
            correct += (model(ids, off).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=48317)
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()
    t0 = time.time()
    texts, labels = load_tickets(args.rows)
    counts = Counter(w for t in texts for w in re.findall(r"\w+", t.lower()))
    vocab = {w: i + 2 for i, (w, _) in enumerate(counts.most_common())}
    ds = TicketDataset(texts, labels, vocab)
    print(f"loaded {len(ds)} tickets, vocab {len(vocab) + 2} ({time.time() - t0:.1f}s)")

    lengths = [int(frac * len(ds)) for frac in SPLITS]
    train_ds, val_ds, test_ds = random_split(ds, lengths, generator=torch.Generator().manual_seed(42))
    print(f"split: train={len(train_ds)} val={len(val_ds)} test={len(test_ds)}")

    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(val_ds, batch_size=512, collate_fn=collate)
    test_dl = DataLoader(test_ds, batch_size=512, collate_fn=collate)
    model = BowRouter(len(vocab) + 2)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        model.train()
        for ids, off, y in train_dl:
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(ids, off), y)
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss={loss.item():.4f} val_acc={evaluate(model, val_dl):.4f}")
    print(f"test_acc={evaluate(model, test_dl):.4f}")
    torch.save({"model": model.state_dict(), "vocab": vocab}, "router.pt")


if __name__ == "__main__":
    main()
