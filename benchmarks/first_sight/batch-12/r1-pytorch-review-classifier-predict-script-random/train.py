"""Product-review sentiment classifier (bag of embeddings).

  python train.py train     # trains, reports val accuracy, saves model.pt
  python train.py predict   # loads model.pt, scores the held-out test file
"""
import os
import random
import sys
import torch
import torch.nn as nn
import torch.nn.functional as F

POS = "great love excellent perfect comfortable recommend sturdy fast happy works beautiful".split()
NEG = "broken refund terrible cheap disappointed stopped returned worst useless slow flimsy".split()
NEUTRAL = ("the it this product i was a and after for my with to of days box arrived size color "
           "bought item seller order price quality delivery use week").split()


def write_data():
    rnd = random.Random(0)
    for name, n in [("train.tsv", 3000), ("test.tsv", 600)]:
        with open(name, "w") as f:
            for _ in range(n):
                y = rnd.randint(0, 1)
                words = rnd.sample(NEUTRAL, 8) + rnd.sample(POS if y else NEG, 2) + rnd.sample(POS + NEG, 1)
                rnd.shuffle(words)
                f.write(f"{y}\t{' '.join(words)}\n")


def read(path):
    rows = [l.rstrip("\n").split("\t") for l in open(path)]
    return [int(y) for y, _ in rows], [t.split() for _, t in rows]


def build_vocab(texts):
    words = set(w for t in texts for w in t)
    vocab = {"<unk>": 0}
    for w in words:
        vocab[w] = len(vocab)
    return vocab


def encode(texts, vocab):
    ids = [torch.tensor([vocab.get(w, 0) for w in t]) for t in texts]
    offsets = torch.tensor([0] + [len(t) for t in ids[:-1]]).cumsum(0)
    return torch.cat(ids), offsets


class BagClassifier(nn.Module):
    def __init__(self, n_vocab, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(n_vocab, dim, mode="mean")
        self.out = nn.Linear(dim, 2)

    def forward(self, ids, offsets):
        return self.out(self.emb(ids, offsets))


def train():
    torch.manual_seed(0)
    labels, texts = read("train.tsv")
    vocab = build_vocab(texts)
    n_val = 500
    tr_x, va_x = texts[n_val:], texts[:n_val]
    tr_y, va_y = torch.tensor(labels[n_val:]), torch.tensor(labels[:n_val])
    model = BagClassifier(len(vocab))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(5):
        perm = torch.randperm(len(tr_x))
        for i in range(0, len(tr_x), 64):
            idx = perm[i:i + 64].tolist()
            ids, off = encode([tr_x[j] for j in idx], vocab)
            loss = F.cross_entropy(model(ids, off), tr_y[idx])
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            acc = (model(*encode(va_x, vocab)).argmax(1) == va_y).float().mean().item()
        print(f"epoch {epoch}  last batch loss {loss.item():.4f}  val acc {acc:.3f}")
    torch.save(model.state_dict(), "model.pt")
    print(f"saved model.pt (vocab size {len(vocab)})")


def predict():
    labels, texts = read("test.tsv")
    train_labels, train_texts = read("train.tsv")
    vocab = build_vocab(train_texts)          # same training file -> same vocab
    model = BagClassifier(len(vocab))
    model.load_state_dict(torch.load("model.pt"))
    model.eval()
    with torch.no_grad():
        preds = model(*encode(texts, vocab)).argmax(1)
    acc = (preds == torch.tensor(labels)).float().mean().item()
    print(f"test reviews: {len(labels)}  accuracy {acc:.3f}")
    for t, p in list(zip(texts, preds.tolist()))[:5]:
        print(f"  {'POS' if p else 'NEG'}  {' '.join(t)}")


if __name__ == "__main__":
    if not os.path.exists("train.tsv"):
        write_data()
    {"train": train, "predict": predict}[sys.argv[1]]()
