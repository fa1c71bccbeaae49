"""Word-level LSTM language model (PTB-style recipe: SGD lr=20, clip 0.25, truncated BPTT)."""
import math
import random
import time

import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)

# ---- synthetic corpus from a small stochastic grammar ----
SUBJ = ["the cat", "a dog", "the old man", "my sister", "the committee", "a small bird", "the engineer"]
VERB = ["saw", "liked", "followed", "ignored", "painted", "visited", "questioned"]
OBJ = ["the river", "a red car", "the tall tower", "our neighbour", "the market", "a quiet garden"]
ADV = ["yesterday", "slowly", "again", "at noon", "without a word", "in the rain"]


def sentence():
    s = f"{random.choice(SUBJ)} {random.choice(VERB)} {random.choice(OBJ)}"
    if random.random() < 0.5:
        s += " " + random.choice(ADV)
    if random.random() < 0.3:
        s += f" and {random.choice(VERB)} {random.choice(OBJ)}"
    return s + " <eos>"


words = " ".join(sentence() for _ in range(40000)).split()
vocab = {w: i for i, w in enumerate(sorted(set(words)))}
data = torch.tensor([vocab[w] for w in words])
n = len(data)
train_data, val_data = data[: int(0.9 * n)], data[int(0.9 * n):]
print(f"tokens {n}, vocab {len(vocab)}")


def batchify(d, bsz):
    nb = d.size(0) // bsz
    return d[: nb * bsz].view(bsz, -1).t().contiguous()  # (T, B)


class LSTMLM(nn.Module):
    def __init__(self, ntoken, ninp=200, nhid=200, nlayers=2, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)
        nn.init.uniform_(self.decoder.weight, -0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.drop(self.encoder(x)), hidden)
        return self.decoder(self.drop(out)), hidden


def repackage(h):
    return tuple(v.detach() for v in h)


bptt, bsz, clip, lr = 35, 20, 0.25, 20.0
train_b, val_b = batchify(train_data, bsz), batchify(val_data, 10)
model = LSTMLM(len(vocab))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=lr)


def evaluate(src):
    model.eval()
    total, hidden = 0.0, None
    with torch.no_grad():
        for i in range(0, src.size(0) - 1, bptt):
            x, y = src[i:i + bptt], src[i + 1:i + 1 + bptt]
            x = x[: len(y)]
            out, hidden = model(x, hidden)
            total += len(x) * criterion(out.view(-1, len(vocab)), y.reshape(-1)).item()
    return total / (src.size(0) - 1)


for epoch in range(1, 4):
    model.train()
    hidden, t0, log_loss = None, time.time(), 0.0
    for batch, i in enumerate(range(0, train_b.size(0) - 1, bptt)):
        x, y = train_b[i:i + bptt], train_b[i + 1:i + 1 + bptt]
        x = x[: len(y)]
        hidden = repackage(hidden) if hidden is not None else None
        optimizer.zero_grad()
        out, hidden = model(x, hidden)
        loss = criterion(out.view(-1, len(vocab)), y.reshape(-1))
        loss.backward()
        optimizer.step()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        log_loss += loss.item()
        if batch % 50 == 0 and batch > 0:
            cur = log_loss / 50
            print(f"| epoch {epoch} | {batch:4d}/{train_b.size(0) // bptt} batches | lr {lr:.1f} | "
                  f"ms/batch {(time.time() - t0) * 1000 / 50:6.1f} | loss {cur:6.2f} | ppl {math.exp(min(cur, 50)):9.2f}")
            log_loss, t0 = 0.0, time.time()
    vl = evaluate(val_b)
    print(f"| end of epoch {epoch} | valid loss {vl:.2f} | valid ppl {math.exp(min(vl, 50)):.2f}")
