"""Review sentiment with an LSTM over packed sequences."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader

random.seed(0)
torch.manual_seed(0)

POS = ["great", "love", "excellent", "perfect", "happy", "recommend", "fast", "works"]
NEG = ["broken", "refund", "terrible", "slow", "waste", "disappointed", "returned", "awful"]
NEUTRAL = [f"w{i}" for i in range(300)]
VOCAB = {w: i + 1 for i, w in enumerate(POS + NEG + NEUTRAL)}  # 0 = padding


def make_reviews(n):
    data = []
    for _ in range(n):
        y = random.randint(0, 1)
        length = random.randint(5, 60)
        words = random.choices(NEUTRAL, k=length)
        for _ in range(max(1, length // 12)):
            words[random.randrange(length)] = random.choice(POS if y else NEG)
        data.append(([VOCAB[w] for w in words], y))
    return data


def collate(batch):
    seqs = sorted([torch.tensor(ids) for ids, _ in batch], key=len, reverse=True)
    lengths = torch.tensor([len(s) for s in seqs])
    labels = torch.tensor([y for _, y in batch], dtype=torch.float)
    return pad_sequence(seqs, batch_first=True), lengths, labels


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, 1)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True)
        _, (h, _) = self.lstm(packed)
        return self.out(h[-1]).squeeze(-1)


def run_epoch(model, loader, opt=None):
    training = opt is not None
    model.train(training)
    tot_loss, correct, n = 0.0, 0, 0
    with torch.set_grad_enabled(training):
        for ids, lengths, y in loader:
            logits = model(ids, lengths)
            loss = F.binary_cross_entropy_with_logits(logits, y)
            if training:
                opt.zero_grad()
                loss.backward()
                opt.step()
            tot_loss += loss.item() * len(y)
            correct += ((logits > 0).float() == y).sum().item()
            n += len(y)
    return tot_loss / n, correct / n


def main():
    train_dl = DataLoader(make_reviews(8000), batch_size=64, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(make_reviews(2000), batch_size=256, collate_fn=collate)
    model = LSTMClassifier(len(VOCAB) + 1)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(6):
        tr_loss, tr_acc = run_epoch(model, train_dl, opt)
        va_loss, va_acc = run_epoch(model, val_dl)
        print(f"epoch {epoch} train_loss {tr_loss:.4f} train_acc {tr_acc:.3f} "
              f"val_loss {va_loss:.4f} val_acc {va_acc:.3f}", flush=True)


if __name__ == "__main__":
    main()
