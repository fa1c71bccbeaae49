"""Product-review sentiment: word-level GRU classifier, variable-length batches."""
import random
import time
from collections import Counter

import torch
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

POS = "great excellent love perfect works sturdy fast recommend happy solid".split()
NEG = "broken poor refund slow cheap flimsy return awful disappointed late".split()
FILLER = ("the this it was is a and i my for with to of on very after days use box item product "
          "order arrived battery size color price quality").split()


def synth_reviews(n, seed=0):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        label = rnd.random() < 0.5
        words = rnd.choices(FILLER, k=rnd.randint(6, 40))
        for _ in range(rnd.randint(1, 3)):
            words.insert(rnd.randrange(len(words)), rnd.choice(POS if label else NEG))
        out.append((" ".join(words), int(label)))
    return out


class Vocab:
    def __init__(self, texts, min_freq=1):
        counts = Counter(w for t in texts for w in t.split())
        self.itos = ["<pad>", "<unk>"] + sorted(w for w, c in counts.items() if c >= min_freq)
        self.stoi = {w: i for i, w in enumerate(self.itos)}
        self.pad_id = 0

    def encode(self, text):
        return [self.stoi.get(w, 1) for w in text.split()]


class ReviewDataset(Dataset):
    def __init__(self, rows, vocab):
        self.rows, self.vocab = rows, vocab

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        return torch.tensor(self.vocab.encode(text)), label


def collate(batch, pad_id):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True, padding_value=pad_id), lengths, torch.tensor(labels)


class GRUClassifier(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, 2)

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(self.emb(x), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return self.out(h[-1])


def main():
    mp.set_start_method("spawn", force=True)
    torch.manual_seed(0)
    rows = synth_reviews(8000)
    train_rows, val_rows = rows[:7000], rows[7000:]
    vocab = Vocab([t for t, _ in train_rows])
    print(f"torch {torch.__version__} | vocab {len(vocab.itos)} | train {len(train_rows)} val {len(val_rows)}")

    loader_kw = dict(num_workers=2, persistent_workers=True,
                     collate_fn=lambda b: collate(b, vocab.pad_id))
    train_dl = DataLoader(ReviewDataset(train_rows, vocab), batch_size=64, shuffle=True, **loader_kw)
    val_dl = DataLoader(ReviewDataset(val_rows, vocab), batch_size=256, **loader_kw)

    model = GRUClassifier(len(vocab.itos))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(3):
        t0 = time.time()
        model.train()
        for step, (x, lengths, y) in enumerate(train_dl):
            loss = loss_fn(model(x, lengths), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 50 == 0:
                print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f}")
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, lengths, y in val_dl:
                correct += (model(x, lengths).argmax(1) == y).sum().item()
        print(f"epoch {epoch} val_acc {correct / len(val_rows):.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
