"""Character-level LSTM LM on support-chat transcripts (synthetic corpus stand-in).

Recipe follows the classic word-LM example: plain SGD, lr 20, clip 0.25, truncated BPTT 35,
LR divided by 4 when validation loss stops improving. The character embedding is shared
with the production tagger and stays frozen.
"""
import math
import random
import time

import torch
import torch.nn as nn

SEED = 1234
BPTT = 35
BATCH = 32
LR = 20.0
CLIP = 0.25
EPOCHS = 2

random.seed(SEED)
torch.manual_seed(SEED)

GREET = ["hi", "hello", "good morning", "hey there"]
ISSUE = ["my order {n} has not arrived", "i was charged twice for order {n}",
         "the app crashes when i open settings", "i cannot reset my password",
         "please cancel subscription {n}", "the invoice {n} shows the wrong address"]
REPLY = ["sorry to hear that, let me check order {n}", "thanks, i have refunded the duplicate charge",
         "could you try reinstalling the app", "i have sent a reset link to your email",
         "your subscription {n} is cancelled", "i have corrected the address on invoice {n}"]


def make_corpus(n_dialogs):
    lines = []
    for _ in range(n_dialogs):
        k = random.randrange(len(ISSUE))
        n = random.randint(10000, 99999)
        lines.append(f"user: {random.choice(GREET)}, {ISSUE[k].format(n=n)}.")
        lines.append(f"agent: {REPLY[k].format(n=n)}.")
    return "\n".join(lines) + "\n"


text = make_corpus(800)
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
split = int(0.9 * len(data))


def batchify(d, bsz):
    nb = d.size(0) // bsz
    return d[: nb * bsz].view(bsz, -1).t().contiguous()  # (T, B)


train_data, val_data = batchify(data[:split], BATCH), batchify(data[split:], 16)


class CharLM(nn.Module):
    def __init__(self, vocab, emb=64, hidden=256, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, layers, dropout=0.2)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state):
        h, state = self.rnn(self.emb(x), state)
        return self.out(h), state


def detach(state):
    return tuple(s.detach() for s in state)


def evaluate(model, src):
    model.eval()
    total, state = 0.0, None
    with torch.no_grad():
        for i in range(0, src.size(0) - 1, BPTT):
            seq = min(BPTT, src.size(0) - 1 - i)
            x, y = src[i:i + seq], src[i + 1:i + 1 + seq]
            logits, state = model(x, state)
            total += seq * nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), y.reshape(-1)).item()
    return total / (src.size(0) - 1)


model = CharLM(len(chars))
model.emb.weight.requires_grad_(False)
trainable = filter(lambda p: p.requires_grad, model.parameters())
optimizer = torch.optim.SGD(trainable, lr=LR)
criterion = nn.CrossEntropyLoss()
print(f"chars={len(chars)} train_tokens={split} steps/epoch={train_data.size(0) // BPTT}")

lr, best_val = LR, float("inf")
for epoch in range(1, EPOCHS + 1):
    model.train()
    state, t0, run_loss, run_norm = None, time.time(), 0.0, 0.0
    for step, i in enumerate(range(0, train_data.size(0) - 1, BPTT), 1):
        seq = min(BPTT, train_data.size(0) - 1 - i)
        x, y = train_data[i:i + seq], train_data[i + 1:i + 1 + seq]
        state = detach(state) if state is not None else None
        logits, state = model(x, state)
        loss = criterion(logits.view(-1, logits.size(-1)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(trainable, CLIP)
        optimizer.step()
        run_loss += loss.item()
        run_norm += float(gnorm)
        if step % 10 == 0:
            cur = run_loss / 10
            ppl = math.exp(cur) if cur < 50 else float("inf")
            print(f"| epoch {epoch} | step {step:4d} | lr {lr:5.2f} | loss {cur:8.3f} | ppl {ppl:10.2f} "
                  f"| grad_norm {run_norm / 10:.3f} | {1000 * (time.time() - t0) / 10:.0f} ms/step")
            run_loss, run_norm, t0 = 0.0, 0.0, time.time()
    val = evaluate(model, val_data)
    print(f"=== end of epoch {epoch} | val loss {val:.3f} | val ppl {math.exp(min(val, 50)):.2f}")
    if val < best_val:
        best_val = val
    else:
        lr /= 4.0
        for g in optimizer.param_groups:
            g["lr"] = lr
