"""Reproduces loss spikes from data read in shard order without shuffling.

The training set is the concatenation of three sources whose inputs map to labels in
different ways, and the DataLoader runs with shuffle=False. Each batch therefore comes
from one source: the model fits the current source, and the loss jumps every time the
loader crosses into the next source (and again at each epoch boundary). Prints
HF-Trainer-style dicts every 10 steps. Run: python repro.py > train.log
"""

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
sources = []
for shift in range(3):  # three shards, each with its own labelling rule
    x = torch.randn(640, 16)
    sources.append((x, ((x[:, shift] + x[:, shift + 3]) > 0).long()))
dataset = TensorDataset(torch.cat([s[0] for s in sources]), torch.cat([s[1] for s in sources]))
loader = DataLoader(dataset, batch_size=32, shuffle=False)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
print(f"dataset=concat(shard_0, shard_1, shard_2) shuffle=False batch_size=32 steps_per_epoch={len(loader)}")
step = 0
for epoch in range(3):
    for features, labels in loader:
        loss = torch.nn.functional.cross_entropy(model(features), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        if step % 5 == 0:
            print({"loss": round(loss.item(), 4), "epoch": round(step / len(loader), 2), "step": step})
