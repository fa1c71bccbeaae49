import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
random.seed(0)

N_EVENTS = 300
MAX_LEN = 40


class UserEvents(Dataset):
    def __init__(self, n):
        self.rows = []
        for _ in range(n):
            if random.random() < 0.0002:
                length = 0
            else:
                length = min(1 + int(random.expovariate(1 / 12)), MAX_LEN)
            events = [random.randrange(1, N_EVENTS) for _ in range(length)]
            label = int(sum(e < 50 for e in events) >= 2)
            self.rows.append((events, label))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        events, label = self.rows[i]
        return torch.tensor(events, dtype=torch.long), label


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    pad_mask = torch.arange(padded.shape[1])[None, :] >= lengths[:, None]
    return padded, pad_mask, torch.tensor(labels, dtype=torch.float)


class AttnPoolClassifier(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(N_EVENTS, d, padding_idx=0)
        self.query = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.attn = nn.MultiheadAttention(d, num_heads=4, batch_first=True)
        self.head = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))

    def forward(self, events, pad_mask):
        h = self.emb(events)
        q = self.query.expand(h.shape[0], -1, -1)
        pooled, _ = self.attn(q, h, h, key_padding_mask=pad_mask)
        return self.head(pooled.squeeze(1)).squeeze(-1)


ds = UserEvents(10000)
print(f"users: {len(ds)}, positive rate: {sum(r[1] for r in ds.rows) / len(ds):.3f}")
loader = DataLoader(ds, batch_size=64, shuffle=True, collate_fn=collate)
model = AttnPoolClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()

step = 0
for epoch in range(2):
    for events, pad_mask, y in loader:
        logits = model(events, pad_mask)
        loss = loss_fn(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 10 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
