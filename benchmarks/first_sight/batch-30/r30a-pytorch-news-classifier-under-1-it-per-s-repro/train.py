"""News topic classifier (EmbeddingBag + MLP) trained on the fly from raw text."""
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

N_TOPICS, VOCAB_SIZE, MAX_STEPS, BATCH = 8, 30000, 60, 32
DATA = Path("data")


def build_demo_corpus(n_docs=20000, seed=0):
    """Stand-in for the crawler export: vocab.json (word list) + docs.jsonl."""
    rng = np.random.default_rng(seed)
    DATA.mkdir(exist_ok=True)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = sorted({"".join(rng.choice(letters, size=rng.integers(3, 10))) for _ in range(VOCAB_SIZE + 2000)})[:VOCAB_SIZE - 2]
    (DATA / "vocab.json").write_text(json.dumps(["<pad>", "<unk>"] + words))
    zipf = 1.0 / np.arange(1, len(words) + 1)
    base = rng.permutation(len(words))
    topic_words = [rng.choice(len(words), 40, replace=False) for _ in range(N_TOPICS)]
    with open(DATA / "docs.jsonl", "w") as f:
        for _ in range(n_docs):
            t = int(rng.integers(N_TOPICS))
            body = base[rng.choice(len(words), size=rng.integers(40, 90), p=zipf / zipf.sum())]
            body = np.concatenate([body, rng.choice(topic_words[t], 6)])
            f.write(json.dumps({"text": " ".join(words[i] for i in rng.permutation(body)), "topic": t}) + "\n")


class Vocab:
    def __init__(self, path):
        self.itos = json.loads(Path(path).read_text())
        self.unk = self.itos.index("<unk>")

    def encode(self, text):
        return [self.itos.index(w) if w in self.itos else self.unk for w in text.split()]


class NewsDataset(Dataset):
    def __init__(self, path, vocab):
        self.rows = [json.loads(line) for line in open(path)]
        self.vocab = vocab

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = self.rows[i]
        return torch.tensor(self.vocab.encode(r["text"])), r["topic"]


def collate(batch):
    ids, topics = zip(*batch)
    offsets = torch.tensor([0] + [len(x) for x in ids[:-1]]).cumsum(0)
    return torch.cat(ids), offsets, torch.tensor(topics)


class BagClassifier(nn.Module):
    def __init__(self, vocab_size, dim=128):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, N_TOPICS))

    def forward(self, ids, offsets):
        return self.mlp(self.bag(ids, offsets))


def main():
    if not (DATA / "docs.jsonl").exists():
        build_demo_corpus()
    torch.manual_seed(0)
    vocab = Vocab(DATA / "vocab.json")
    ds = NewsDataset(DATA / "docs.jsonl", vocab)
    dl = DataLoader(ds, batch_size=BATCH, shuffle=True, num_workers=2, collate_fn=collate)
    model = BagClassifier(len(vocab.itos))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    print(f"torch {torch.__version__} | {len(ds)} docs | vocab {len(vocab.itos)} | batch {BATCH} | 2 workers")

    t0 = tlast = time.time()
    for step, (ids, offsets, y) in enumerate(dl, 1):
        loss = nn.functional.cross_entropy(model(ids, offsets), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            now = time.time()
            print(f"step {step:4d} | loss {loss.item():.4f} | {10 / (now - tlast):6.2f} it/s "
                  f"| {10 * BATCH / (now - tlast):7.1f} samples/s")
            tlast = now
        if step == MAX_STEPS:
            break
    print(f"{MAX_STEPS} steps in {time.time() - t0:.1f}s; full epoch would be {len(dl)} steps")


if __name__ == "__main__":
    main()
