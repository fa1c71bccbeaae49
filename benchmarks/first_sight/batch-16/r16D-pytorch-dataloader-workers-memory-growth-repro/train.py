import os
import random
import time
import psutil
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)

MAX_LEN = 48


def total_memory_mb():
    """PSS of the main process plus all DataLoader workers."""
    main = psutil.Process(os.getpid())
    procs = [main] + main.children(recursive=True)
    total = 0
    for p in procs:
        try:
            total += p.memory_full_info().pss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20, len(procs)


# ---- load the query log (synthetic stand-in for our 1.5M-row CSV export) ----
INTENTS = ["weather", "music", "alarm", "news", "timer", "shopping", "navigation", "calls"]
KEYWORDS = {
    "weather": ["rain", "forecast", "sunny", "temperature"], "music": ["play", "song", "album", "playlist"],
    "alarm": ["wake", "alarm", "morning", "snooze"], "news": ["headlines", "news", "today", "sports"],
    "timer": ["timer", "minutes", "countdown", "seconds"], "shopping": ["buy", "cart", "order", "milk"],
    "navigation": ["route", "directions", "traffic", "drive"], "calls": ["call", "dial", "mom", "phone"],
}
FILLER = ["please", "can", "you", "the", "for", "me", "what", "is", "a", "set", "to", "in", "hey"]

t0 = time.time()
records = []
for i in range(1_500_000):
    label = random.randrange(len(INTENTS))
    words = random.choices(FILLER, k=random.randint(2, 6)) + random.choices(KEYWORDS[INTENTS[label]], k=2)
    random.shuffle(words)
    records.append({"id": i, "query": " ".join(words), "intent": label, "locale": "en_US"})
print(f"loaded {len(records):,} queries in {time.time() - t0:.1f}s")


class QueryDataset(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, idx):
        row = self.rows[idx]
        ids = [ord(c) % 128 for c in row["query"][:MAX_LEN]]
        ids += [0] * (MAX_LEN - len(ids))
        return torch.tensor(ids), row["intent"]


class CharCNN(nn.Module):
    def __init__(self, n_cls):
        super().__init__()
        self.emb = nn.Embedding(128, 32, padding_idx=0)
        self.conv = nn.Conv1d(32, 64, 5, padding=2)
        self.fc = nn.Linear(64, n_cls)

    def forward(self, x):
        h = F.relu(self.conv(self.emb(x).transpose(1, 2)))
        return self.fc(h.max(-1).values)


ds = QueryDataset(records)
loader = DataLoader(ds, batch_size=512, shuffle=True, num_workers=4)
model = CharCNN(len(INTENTS))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

mem, nproc = total_memory_mb()
print(f"before training: total memory {mem:.0f} MB ({nproc} procs)")
for epoch in range(1):
    t0 = time.time()
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 250 == 0:
            mem, nproc = total_memory_mb()
            print(f"epoch {epoch} step {step:4d}/{len(loader)} loss {loss.item():.4f} "
                  f"total memory {mem:7.0f} MB ({nproc} procs) {time.time() - t0:5.1f}s")
