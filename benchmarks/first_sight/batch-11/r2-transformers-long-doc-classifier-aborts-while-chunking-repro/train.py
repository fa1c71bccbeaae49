"""Contract-type classifier for long documents: split every contract into 256-token windows
with the BERT tokenizer, train a bag-of-embeddings baseline on the windows, predict a document
by summing its window log-probabilities."""
import os
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertTokenizerFast

MAX_LEN = 256
STRIDE = 248          # move the window forward 248 tokens each time (8 tokens of overlap)
LABELS = ["nda", "lease", "employment", "supply"]
WORK = "/tmp/contracts"


def load_contracts(n, seed):
    """Stand-in for the OCR'd contracts: long documents, 1.5k-4k words each."""
    rng = random.Random(seed)
    common = [f"clause{i}" for i in range(2000)]
    topical = {lab: [f"{lab}term{i}" for i in range(50)] for lab in LABELS}
    docs, labels = [], []
    for _ in range(n):
        y = rng.randrange(len(LABELS))
        n_words = rng.randint(1500, 4000)
        words = [rng.choice(topical[LABELS[y]]) if rng.random() < 0.1 else rng.choice(common)
                 for _ in range(n_words)]
        docs.append(" ".join(words))
        labels.append(y)
    return docs, labels


def build_tokenizer():
    os.makedirs(WORK, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + [f"clause{i}" for i in range(2000)] + \
        [f"{lab}term{i}" for lab in LABELS for i in range(50)]
    with open(f"{WORK}/vocab.txt", "w") as f:
        f.write("\n".join(vocab))
    return BertTokenizerFast.from_pretrained(WORK)


def chunk(tok, docs, labels, batch_docs=16):
    ids, masks, ys, doc_idx = [], [], [], []
    t0 = time.time()
    for b in range(0, len(docs), batch_docs):
        enc = tok(docs[b:b + batch_docs], max_length=MAX_LEN, truncation=True, stride=STRIDE,
                  return_overflowing_tokens=True, padding="max_length")
        for k, src in enumerate(enc["overflow_to_sample_mapping"]):
            ids.append(enc["input_ids"][k])
            masks.append(enc["attention_mask"][k])
            ys.append(labels[b + src])
            doc_idx.append(b + src)
        print(f"  chunked {min(b + batch_docs, len(docs))}/{len(docs)} docs -> {len(ids)} windows "
              f"({time.time() - t0:.1f}s)", flush=True)
    return TensorDataset(torch.tensor(ids), torch.tensor(masks), torch.tensor(ys), torch.tensor(doc_idx))


class WindowBaseline(nn.Module):
    def __init__(self, vocab_size, dim, n_labels):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.out = nn.Linear(dim, n_labels)

    def forward(self, input_ids, attention_mask):
        m = attention_mask.unsqueeze(-1).float()
        h = (self.emb(input_ids) * m).sum(1) / m.sum(1).clamp(min=1)
        return self.out(h)


def main():
    torch.manual_seed(0)
    tok = build_tokenizer()
    train_docs, train_y = load_contracts(200, seed=1)
    val_docs, val_y = load_contracts(50, seed=2)
    print(f"{len(train_docs)} training contracts, {len(val_docs)} validation contracts", flush=True)

    print("chunking training set", flush=True)
    train_ds = chunk(tok, train_docs, train_y)
    print("chunking validation set", flush=True)
    val_ds = chunk(tok, val_docs, val_y)

    model = WindowBaseline(tok.vocab_size, 64, len(LABELS))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model.train()
    for epoch in range(3):
        for step, (x, m, y, _) in enumerate(DataLoader(train_ds, batch_size=32, shuffle=True)):
            loss = F.cross_entropy(model(x, m), y)
            loss.backward()
            opt.step()
            opt.zero_grad()
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)

    model.eval()
    doc_logits = torch.zeros(len(val_docs), len(LABELS))
    with torch.no_grad():
        for x, m, y, d in DataLoader(val_ds, batch_size=64):
            doc_logits.index_add_(0, d, F.log_softmax(model(x, m), -1))
    acc = (doc_logits.argmax(1) == torch.tensor(val_y)).float().mean().item()
    print(f"document accuracy: {acc:.3f}")


if __name__ == "__main__":
    main()
