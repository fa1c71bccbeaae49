"""Matrix-factorisation recommender for the "more like this" shelf.

Implicit feedback (clicks) with sampled negatives; BPR loss. The catalogue
has 1.6M items and 400k active users.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_USERS, N_ITEMS, DIM = 400_000, 1_600_000, 64
BATCH, STEPS, LOG_EVERY = 4096, 40, 10
N_CLICKS = 20_000_000

# synthetic click log: users prefer items from "their" genre block
g = torch.Generator().manual_seed(1)
users = torch.randint(0, N_USERS, (N_CLICKS,), generator=g)
genre = users % 200
items = genre * (N_ITEMS // 200) + torch.randint(0, N_ITEMS // 200, (N_CLICKS,), generator=g)


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        nn.init.normal_(self.user.weight, std=0.05)
        nn.init.normal_(self.item.weight, std=0.05)
        nn.init.zeros_(self.item_bias.weight)

    def score(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1) + self.item_bias(i).squeeze(-1)


model = MF()
n_params = sum(p.numel() for p in model.parameters())
print(f"params: {n_params / 1e6:.1f}M", flush=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

t0 = time.time()
t_last = t0
for step in range(1, STEPS + 1):
    idx = torch.randint(0, N_CLICKS, (BATCH,))
    u, pos = users[idx], items[idx]
    neg = torch.randint(0, N_ITEMS, (BATCH,))
    loss = -F.logsigmoid(model.score(u, pos) - model.score(u, neg)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % LOG_EVERY == 0:
        now = time.time()
        sps = LOG_EVERY * BATCH / (now - t_last)
        t_last = now
        epoch_h = N_CLICKS / sps / 3600
        print(f"step {step:4d} loss {loss.item():.4f} {sps:9.0f} samples/s "
              f"({1000 * (now - t0) / step:.0f} ms/step, est. {epoch_h:.2f} h/epoch)", flush=True)

print(f"total {time.time() - t0:.1f}s for {STEPS} steps")
