import random
import re
import time

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

random.seed(13)
torch.manual_seed(13)

STOPWORDS = {"the", "a", "an", "is", "it", "to", "and", "of", "i", "so", "this", "that", "my", "rt"}
POS = ["love", "great", "happy", "awesome", "best", "amazing", "thanks", "win"]
NEG = ["hate", "sad", "awful", "worst", "angry", "broken", "fail", "late"]
NEU = ["today", "phone", "train", "coffee", "game", "update", "weekend", "store", "music"]


def fake_tweet(label):
    n = random.randint(3, 12)
    words = random.choices(NEU + list(STOPWORDS), k=n)
    words += random.choices(POS if label else NEG, k=random.randint(1, 2))
    random.shuffle(words)
    if random.random() < 0.3:
        words.insert(0, "@user%d" % random.randint(1, 999))
    if random.random() < 0.2:
        words.append("https://t.co/%06x" % random.getrandbits(24))
    return " ".join(words)


def build_corpus(n):
    rows = [(fake_tweet(y), y) for y in (random.randint(0, 1) for _ in range(n))]
    # retweets of links/mentions that the scraper also picked up
    for _ in range(n // 1500):
        rows.append(("RT @user%d https://t.co/%06x" % (random.randint(1, 999), random.getrandbits(24)), random.randint(0, 1)))
    random.shuffle(rows)
    return rows


URL_RE = re.compile(r"https?://\S+")
MENTION_RE = re.compile(r"@\w+")


def clean(text):
    text = URL_RE.sub(" ", text.lower())
    text = MENTION_RE.sub(" ", text)
    return [w for w in re.findall(r"[a-z']+", text) if w not in STOPWORDS]


class TweetDataset(Dataset):
    def __init__(self, rows, vocab):
        self.items = [(torch.tensor([vocab.get(w, 1) for w in clean(t)], dtype=torch.long), y) for t, y in rows]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, lengths, torch.tensor(labels, dtype=torch.float)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, emb=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, lengths):
        e = self.emb(x)
        packed = pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.out(h[-1]).squeeze(-1)


def main():
    rows = build_corpus(6000)
    split = int(0.9 * len(rows))
    train_rows, val_rows = rows[:split], rows[split:]
    vocab = {"<pad>": 0, "<unk>": 1}
    for t, _ in train_rows:
        for w in clean(t):
            vocab.setdefault(w, len(vocab))
    train_ds, val_ds = TweetDataset(train_rows, vocab), TweetDataset(val_rows, vocab)
    print(f"train={len(train_ds)} val={len(val_ds)} vocab={len(vocab)}")

    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(val_ds, batch_size=256, collate_fn=collate)

    model = LSTMClassifier(len(vocab))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(1, 6):
        model.train()
        t0, total, n = time.time(), 0.0, 0
        for step, (x, lengths, y) in enumerate(train_dl, 1):
            opt.zero_grad()
            loss = loss_fn(model(x, lengths), y)
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
            n += len(y)
            if step % 10 == 0:
                print(f"epoch {epoch} step {step}/{len(train_dl)} loss {total / n:.4f}")
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, lengths, y in val_dl:
                correct += ((model(x, lengths) > 0).float() == y).sum().item()
        print(f"epoch {epoch} train_loss {total / n:.4f} val_acc {correct / len(val_ds):.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
