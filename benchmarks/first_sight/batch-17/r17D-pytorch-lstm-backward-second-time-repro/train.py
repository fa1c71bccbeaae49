"""Character-level LSTM language model with truncated BPTT over a long token stream."""
import math
import random
import time

import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)

SEQ_LEN = 64
BATCH = 32
EMB, HID, LAYERS = 64, 128, 2
EPOCHS = 2
LR = 2e-3

WORDS = ("the model loss gradient batch epoch layer token train valid sample weight "
         "update learning rate schedule optimizer memory tensor kernel device").split()


def build_corpus(n_words=25000):
    text = " ".join(random.choice(WORDS) for _ in range(n_words))
    vocab = sorted(set(text))
    stoi = {c: i for i, c in enumerate(vocab)}
    return torch.tensor([stoi[c] for c in text], dtype=torch.long), vocab


def batchify(data, bsz):
    nb = data.size(0) // bsz
    return data[: nb * bsz].view(bsz, nb)  # (B, T_total)


class CharLSTM(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, EMB)
        self.lstm = nn.LSTM(EMB, HID, LAYERS, batch_first=True, dropout=0.1)
        self.out = nn.Linear(HID, vocab_size)

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(LAYERS, bsz, HID), w.new_zeros(LAYERS, bsz, HID))

    def forward(self, x, hidden):
        h, hidden = self.lstm(self.emb(x), hidden)
        return self.out(h), hidden


def main():
    data, vocab = build_corpus()
    split = int(0.9 * len(data))
    train = batchify(data[:split], BATCH)
    valid = batchify(data[split:], BATCH)
    print(f"vocab={len(vocab)} train_chars={split} stream_len_per_row={train.size(1)}")

    model = CharLSTM(len(vocab))
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    crit = nn.CrossEntropyLoss()

    for epoch in range(EPOCHS):
        model.train()
        hidden = model.init_hidden(BATCH)
        t0, total, n = time.time(), 0.0, 0
        for i in range(0, train.size(1) - 1 - SEQ_LEN, SEQ_LEN):
            x = train[:, i : i + SEQ_LEN]
            y = train[:, i + 1 : i + 1 + SEQ_LEN]
            logits, hidden = model(x, hidden)
            loss = crit(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
            total += loss.item()
            n += 1
            if n % 25 == 0:
                print(f"  epoch {epoch} chunk {n} loss {total / n:.4f} ({time.time() - t0:.1f}s)")

        model.eval()
        with torch.no_grad():
            hidden = model.init_hidden(BATCH)
            vl, vn = 0.0, 0
            for i in range(0, valid.size(1) - 1 - SEQ_LEN, SEQ_LEN):
                logits, hidden = model(valid[:, i : i + SEQ_LEN], hidden)
                vl += crit(logits.reshape(-1, logits.size(-1)),
                           valid[:, i + 1 : i + 1 + SEQ_LEN].reshape(-1)).item()
                vn += 1
        print(f"epoch {epoch} train_loss {total / n:.4f} val_loss {vl / vn:.4f} "
              f"val_ppl {math.exp(vl / vn):.2f}")

    torch.save(model.state_dict(), "/tmp/char_lstm.pt")


if __name__ == "__main__":
    main()
