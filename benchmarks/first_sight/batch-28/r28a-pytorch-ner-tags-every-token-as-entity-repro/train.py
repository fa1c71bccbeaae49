"""BiLSTM NER tagger for support-ticket anonymisation (PER / ORG / LOC).

Tokens are already mapped to ids by the upstream anonymiser; 0 is padding.
"""
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

random.seed(0)
torch.manual_seed(0)

TAGS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"]
TAG2ID = {t: i for i, t in enumerate(TAGS)}
PAD_ID = 0
VOCAB = 5000
# id ranges the synthetic generator uses for each entity type (and ordinary words)
RANGES = {"PER": (1000, 1800), "ORG": (1800, 2600), "LOC": (2600, 3400), "WORD": (3400, 5000)}


def make_sentence():
    toks, tags = [], []
    while len(toks) < random.randint(8, 30):
        if random.random() < 0.15:
            ent = random.choice(["PER", "ORG", "LOC"])
            lo, hi = RANGES[ent]
            for j in range(random.randint(1, 3)):
                toks.append(random.randint(lo, hi - 1))
                tags.append(TAG2ID[("B-" if j == 0 else "I-") + ent])
        else:
            # ordinary words, plus a few ambiguous ones that also occur inside entity names
            lo, hi = RANGES["WORD"] if random.random() < 0.9 else RANGES[random.choice(["PER", "ORG", "LOC"])]
            toks.append(random.randint(lo, hi - 1))
            tags.append(TAG2ID["O"])
    return torch.tensor(toks), torch.tensor(tags)


train = [make_sentence() for _ in range(6000)]
val = [make_sentence() for _ in range(1000)]


def collate(batch):
    toks, tags = zip(*batch)
    return (pad_sequence(toks, batch_first=True, padding_value=PAD_ID),
            pad_sequence(tags, batch_first=True, padding_value=PAD_ID))


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 64, padding_idx=PAD_ID)
        self.lstm = nn.LSTM(64, 96, batch_first=True, bidirectional=True)
        self.out = nn.Linear(192, len(TAGS))

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        return self.out(h)


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
criterion = nn.CrossEntropyLoss(ignore_index=PAD_ID)
train_dl = DataLoader(train, batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(val, batch_size=64, collate_fn=collate)


@torch.no_grad()
def evaluate():
    model.eval()
    tp = fp = fn = correct = total = 0
    for x, y in val_dl:
        pred = model(x).argmax(-1)
        real = x != PAD_ID
        correct += ((pred == y) & real).sum().item()
        total += real.sum().item()
        ent_pred, ent_gold = (pred != TAG2ID["O"]) & real, (y != TAG2ID["O"]) & real
        tp += (ent_pred & ent_gold & (pred == y)).sum().item()
        fp += (ent_pred & ~(ent_gold & (pred == y))).sum().item()
        fn += (ent_gold & ~(ent_pred & (pred == y))).sum().item()
    model.train()
    p, r = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    return correct / total, p, r, 2 * p * r / max(p + r, 1e-9)


for epoch in range(1, 6):
    total = 0.0
    for x, y in train_dl:
        logits = model(x)
        loss = criterion(logits.reshape(-1, len(TAGS)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    acc, p, r, f1 = evaluate()
    print(f"epoch {epoch} train_loss {total / len(train_dl):.4f} | val token_acc {acc:.4f} "
          f"entity P {p:.4f} R {r:.4f} F1 {f1:.4f}", flush=True)

x, y = collate(val[:1])
print("sample gold:", [TAGS[t] for t in y[0].tolist()])
print("sample pred:", [TAGS[t] for t in model(x).argmax(-1)[0].tolist()])
