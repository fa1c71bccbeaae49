# Tiny BiLSTM part-of-speech tagger trained on variable-length sentences.
import random
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

random.seed(0)
torch.manual_seed(0)

TAGS = ["DET", "NOUN", "VERB", "ADJ"]
lex = {
    "DET": ["the", "a", "every"],
    "NOUN": ["dog", "cat", "model", "gpu", "loss"],
    "VERB": ["runs", "eats", "trains", "drops"],
    "ADJ": ["fast", "big", "noisy", "small"],
}
words = ["<pad>"] + sorted({w for ws in lex.values() for w in ws})
w2i = {w: i for i, w in enumerate(words)}
t2i = {t: i for i, t in enumerate(TAGS)}


def sample_sentence():
    pattern = random.choice([["DET", "NOUN", "VERB"], ["DET", "ADJ", "NOUN", "VERB"],
                             ["DET", "ADJ", "ADJ", "NOUN", "VERB", "ADJ"]])
    return [random.choice(lex[t]) for t in pattern], pattern


data = [sample_sentence() for _ in range(512)]


def collate(batch):
    max_len = max(len(ws) for ws, _ in batch)
    x = torch.zeros(len(batch), max_len, dtype=torch.long)
    y = torch.full((len(batch), max_len), -1, dtype=torch.long)
    for i, (ws, ts) in enumerate(batch):
        x[i, : len(ws)] = torch.tensor([w2i[w] for w in ws])
        y[i, : len(ts)] = torch.tensor([t2i[t] for t in ts])
    return x, y


loader = DataLoader(data, batch_size=16, shuffle=True, collate_fn=collate)


class Tagger(nn.Module):
    def __init__(self, vocab, ntags, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, ntags)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        return self.out(h)


model = Tagger(len(words), len(TAGS))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()

for epoch in range(3):
    for step, (x, y) in enumerate(loader):
        logits = model(x)
        loss = criterion(logits.view(-1, len(TAGS)), y.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
