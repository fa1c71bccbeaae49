"""Tabular credit-default MLP with dead-ReLU monitoring."""
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class CreditDataset(Dataset):
    def __init__(self, n=9_600, n_features=48):
        g = torch.Generator().manual_seed(1)
        self.x = torch.randn(n, n_features, generator=g)
        w = torch.randn(n_features, generator=g)
        self.y = ((self.x @ w + 0.5 * torch.randn(n, generator=g)) > 0).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


model = nn.Sequential(
    nn.Linear(48, 256), nn.ReLU(),
    nn.Linear(256, 256), nn.ReLU(),
    nn.Linear(256, 128), nn.ReLU(),
    nn.Linear(128, 64), nn.ReLU(),
    nn.Linear(64, 2),
)
loader = DataLoader(CreditDataset(), batch_size=64, shuffle=True)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()

# fraction of zero activations per ReLU layer, refreshed on every forward pass
dead_frac = {}


def attach_monitors(model):
    for name, module in model.named_modules():
        if isinstance(module, nn.ReLU):
            def hook(mod, inp, out, name=name):
                dead_frac[name] = (out.detach() <= 0).float().mean().item()
            module.register_forward_hook(hook)


def train_step(x, y):
    attach_monitors(model)
    logits = model(x)
    loss = loss_fn(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item(), (logits.argmax(1) == y).float().mean().item()


print(f"{len(loader)} steps/epoch, batch size 64", flush=True)
global_step = 0
for epoch in range(3):
    t_epoch = time.time()
    t_log = time.time()
    for x, y in loader:
        loss, acc = train_step(x, y)
        global_step += 1
        if global_step % 25 == 0:
            ms = (time.time() - t_log) / 25 * 1000
            dead = " ".join(f"{k}:{v:.2f}" for k, v in dead_frac.items())
            print(f"epoch {epoch} step {global_step:4d} | loss {loss:.4f} acc {acc:.3f} | "
                  f"{ms:6.1f} ms/step | dead relu {dead}", flush=True)
            t_log = time.time()
    dt = time.time() - t_epoch
    print(f"== epoch {epoch} done in {dt:.1f}s ({len(loader.dataset) / dt:,.0f} samples/s)", flush=True)
