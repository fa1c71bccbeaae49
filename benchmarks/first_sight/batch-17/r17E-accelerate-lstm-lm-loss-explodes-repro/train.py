"""Word-level LSTM language model (recipe from the classic PyTorch word_language_model example),
ported to accelerate so the same script runs on CPU, one GPU, or several."""
import math
import random

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed

LR = 20.0
CLIP = 0.25
BPTT = 35
BATCH_SIZE = 20
EPOCHS = 2
VOCAB = 1000


def synthetic_corpus(n_tokens, seed=0):
    """Zipfian Markov chain over a 1000-word vocabulary (stand-in for the wikitext dump)."""
    chain = random.Random(1234)
    weights = [1.0 / (i + 1) for i in range(VOCAB)]
    successors = [chain.choices(range(VOCAB), weights=weights, k=8) for _ in range(VOCAB)]
    rng = random.Random(seed)
    tok, out = 0, []
    for _ in range(n_tokens):
        tok = rng.choice(successors[tok]) if rng.random() < 0.9 else rng.choices(range(VOCAB), weights)[0]
        out.append(tok)
    return torch.tensor(out)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=128, nhid=128, nlayers=2, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.encoder.weight.data.uniform_(-0.1, 0.1)
        self.decoder.weight.data.uniform_(-0.1, 0.1)
        self.decoder.bias.data.zero_()
        self.nlayers, self.nhid = nlayers, nhid

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.drop(self.encoder(x)), hidden)
        return self.decoder(self.drop(out)).view(-1, self.decoder.out_features), hidden

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(self.nlayers, bsz, self.nhid), w.new_zeros(self.nlayers, bsz, self.nhid))


def evaluate(model, data, crit):
    model.eval()
    total, hidden = 0.0, model.init_hidden(data.size(1))
    with torch.no_grad():
        for i in range(0, data.size(0) - 1, BPTT):
            x, y = data[i:i + BPTT], data[i + 1:i + 1 + BPTT]
            x = x[: y.size(0)]
            out, hidden = model(x, hidden)
            total += len(x) * crit(out, y.reshape(-1)).item()
    return total / (len(data) - 1)


def main():
    accelerator = Accelerator(cpu=True)
    set_seed(0)
    train = batchify(synthetic_corpus(40_000, 0), BATCH_SIZE)
    valid = batchify(synthetic_corpus(6_000, 1), 10)
    model = RNNModel(VOCAB)
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    model, optimizer = accelerator.prepare(model, optimizer)
    crit = nn.CrossEntropyLoss()

    for epoch in range(EPOCHS):
        model.train()
        hidden = model.init_hidden(BATCH_SIZE)
        total_loss = 0.0
        for batch, i in enumerate(range(0, train.size(0) - 1, BPTT)):
            x, y = train[i:i + BPTT], train[i + 1:i + 1 + BPTT]
            x = x[: y.size(0)]
            hidden = tuple(h.detach() for h in hidden)
            optimizer.zero_grad()
            out, hidden = model(x, hidden)
            loss = crit(out, y.reshape(-1))
            accelerator.backward(loss)
            optimizer.step()
            accelerator.clip_grad_norm_(model.parameters(), CLIP)
            total_loss += loss.item()
            if (batch + 1) % 10 == 0:
                cur = total_loss / 10
                accelerator.print(f"| epoch {epoch} | batch {batch + 1:4d} | lr {LR:.1f} | "
                                  f"loss {cur:8.2f} | ppl {math.exp(min(cur, 50)):10.2f}")
                total_loss = 0.0
        val = evaluate(model, valid, crit)
        accelerator.print(f"| end of epoch {epoch} | valid loss {val:.2f} | valid ppl {math.exp(min(val, 50)):.2f}")


if __name__ == "__main__":
    main()
