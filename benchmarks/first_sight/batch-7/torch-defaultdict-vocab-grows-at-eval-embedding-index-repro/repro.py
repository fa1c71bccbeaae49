# Bag-of-embeddings sentiment classifier with a simple word-level vocabulary.
import collections
import random
import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)

pos_words = "good great excellent love wonderful fantastic nice fun".split()
neg_words = "bad awful terrible hate boring poor worst dull".split()
filler = "the movie was a and it i this film plot acting really".split()


def make_example(label, extra=()):
    words = random.sample(filler, 4) + random.sample(pos_words if label else neg_words, 2) + list(extra)
    random.shuffle(words)
    return " ".join(words), label


train = [make_example(i % 2) for i in range(400)]
val = [make_example(i % 2, extra=random.sample(["soundtrack", "director", "sequel", "cgi"], 1)) for i in range(100)]

# word -> id
vocab = collections.defaultdict(lambda: len(vocab))
vocab["<pad>"]


def encode(text, max_len=12):
    ids = [vocab[w] for w in text.split()][:max_len]
    return ids + [vocab["<pad>"]] * (max_len - len(ids))


train_x = torch.tensor([encode(t) for t, _ in train])
train_y = torch.tensor([y for _, y in train])
print(f"vocab size after building on train: {len(vocab)}", flush=True)


class BagClassifier(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.fc = nn.Linear(dim, 2)

    def forward(self, x):
        return self.fc(self.emb(x).mean(1))


model = BagClassifier(len(vocab))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    perm = torch.randperm(len(train_x))
    for i in range(0, len(perm), 32):
        idx = perm[i : i + 32]
        loss = nn.functional.cross_entropy(model(train_x[idx]), train_y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} train loss {loss.item():.4f}", flush=True)

model.eval()
val_x = torch.tensor([encode(t) for t, _ in val])
val_y = torch.tensor([y for _, y in val])
with torch.no_grad():
    acc = (model(val_x).argmax(-1) == val_y).float().mean()
print(f"val acc {acc:.3f}")
