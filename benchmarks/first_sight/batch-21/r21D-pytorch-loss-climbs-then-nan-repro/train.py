"""Intent classifier: EmbeddingBag over hashed token ids -> MLP. 6 intents."""
import random
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)

VOCAB = 5000
N_INTENTS = 6


class Utterances(Dataset):
    def __init__(self, n, seed):
        rnd = random.Random(seed)
        # each intent has a pool of "keyword" ids; utterances mix keywords and filler
        pools = [list(range(100 + 50 * k, 150 + 50 * k)) for k in range(N_INTENTS)]
        self.items = []
        for _ in range(n):
            y = rnd.randrange(N_INTENTS)
            length = rnd.randint(5, 20)
            toks = [rnd.choice(pools[y]) if rnd.random() < 0.3 else rnd.randrange(1000, VOCAB)
                    for _ in range(length)]
            self.items.append((toks, y))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    flat, offsets, labels = [], [], []
    for toks, y in batch:
        offsets.append(len(flat))
        flat.extend(toks)
        labels.append(y)
    return torch.tensor(flat), torch.tensor(offsets), torch.tensor(labels)


class IntentNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 64, mode="mean")
        self.head = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, N_INTENTS))

    def forward(self, toks, offsets):
        return self.head(self.emb(toks, offsets))


train_dl = DataLoader(Utterances(20000, 1), batch_size=64, shuffle=True, collate_fn=collate)
val_dl = DataLoader(Utterances(2000, 2), batch_size=256, collate_fn=collate)

model = IntentNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss()


def validate():
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for toks, offs, y in val_dl:
            correct += (model(toks, offs).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


step = 0
optimizer.zero_grad()
for epoch in range(4):
    model.train()
    t0 = time.time()
    window = []
    for toks, offs, y in train_dl:
        loss = criterion(model(toks, offs), y)
        loss.backward()
        optimizer.step()
        window.append(loss.item())
        step += 1
        if step % 50 == 0:
            gnorm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
            print(f"step {step:5d} loss {sum(window) / len(window):.4f} grad_norm {gnorm:.2f}")
            window = []
    print(f"== epoch {epoch} val_acc {validate():.4f} ({time.time() - t0:.1f}s)")
