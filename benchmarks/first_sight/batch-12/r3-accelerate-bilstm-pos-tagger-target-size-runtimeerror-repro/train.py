"""BiLSTM part-of-speech tagger, trained with Accelerate.

Runs on CPU here; on the lab box it is started with `accelerate launch`.
"""
import random

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

TAGS = ["<pad>", "DET", "NOUN", "VERB", "ADJ", "ADP", "PRON", "ADV", "CONJ", "NUM", "PUNCT", "PROPN"]
LEXICON = {
    "DET": "the a an this that every".split(),
    "NOUN": "dog cat house river city teacher book car idea market".split(),
    "VERB": "runs sees builds reads likes finds takes opens".split(),
    "ADJ": "red old quick small happy green quiet".split(),
    "ADP": "in on under near with from".split(),
    "PRON": "she he they it we".split(),
    "ADV": "quickly often never slowly".split(),
    "CONJ": "and but or".split(),
    "NUM": "two three ten".split(),
    "PUNCT": [".", ",", "!"],
    "PROPN": "paris anna berlin tom".split(),
}
TEMPLATES = [
    ["DET", "ADJ", "NOUN", "VERB", "DET", "NOUN", "PUNCT"],
    ["PRON", "ADV", "VERB", "ADP", "DET", "NOUN", "PUNCT"],
    ["PROPN", "VERB", "NUM", "ADJ", "NOUN", "CONJ", "PRON", "VERB", "PUNCT"],
    ["DET", "NOUN", "ADP", "PROPN", "VERB", "ADV", "PUNCT"],
    ["PRON", "VERB", "DET", "ADJ", "ADJ", "NOUN", "ADP", "DET", "NOUN", "PUNCT"],
]

PAD = 0


def make_corpus(n, rng):
    corpus = []
    for _ in range(n):
        tags = list(rng.choice(TEMPLATES))
        if rng.random() < 0.5:
            tags = tags[:-1] + ["CONJ"] + list(rng.choice(TEMPLATES))
        words = [rng.choice(LEXICON[t]) for t in tags]
        corpus.append((words, tags))
    return corpus


class TaggedSentences(Dataset):
    def __init__(self, corpus, word2id):
        self.items = [
            (torch.tensor([word2id.get(w, 1) for w in words]),
             torch.tensor([TAGS.index(t) for t in tags]))
            for words, tags in corpus
        ]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    words, tags = zip(*batch)
    return pad_sequence(words, batch_first=True, padding_value=PAD), \
        pad_sequence(tags, batch_first=True, padding_value=PAD)


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size, n_tags, emb=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb, padding_idx=PAD)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tags)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        return self.out(h)                      # (batch, seq_len, n_tags)


def main():
    set_seed(13)
    accelerator = Accelerator()
    rng = random.Random(13)
    train_corpus, val_corpus = make_corpus(1500, rng), make_corpus(300, rng)

    vocab = ["<pad>", "<unk>"] + sorted({w for ws, _ in train_corpus for w in ws})
    word2id = {w: i for i, w in enumerate(vocab)}
    train_dl = DataLoader(TaggedSentences(train_corpus, word2id), batch_size=32,
                          shuffle=True, collate_fn=collate)
    val_dl = DataLoader(TaggedSentences(val_corpus, word2id), batch_size=64, collate_fn=collate)

    model = BiLSTMTagger(len(vocab), len(TAGS))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)
    accelerator.print(f"vocab={len(vocab)} tags={len(TAGS)} train_batches={len(train_dl)} device={accelerator.device}")

    for epoch in range(2):
        model.train()
        total = 0.0
        for step, (words, tags) in enumerate(train_dl):
            logits = model(words)
            loss = criterion(logits, tags)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            total += loss.item()
            if step % 25 == 0:
                accelerator.print(f"epoch {epoch} step {step} loss {loss.item():.4f}")

        model.eval()
        correct = count = 0
        with torch.no_grad():
            for words, tags in val_dl:
                pred = model(words).argmax(-1)
                pred, tags = accelerator.gather_for_metrics((pred, tags))
                mask = tags != PAD
                correct += (pred[mask] == tags[mask]).sum().item()
                count += mask.sum().item()
        accelerator.print(f"epoch {epoch} train_loss {total / len(train_dl):.4f} val_token_acc {correct / count:.4f}")


if __name__ == "__main__":
    main()
