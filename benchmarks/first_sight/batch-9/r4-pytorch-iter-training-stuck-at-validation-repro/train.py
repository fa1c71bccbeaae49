import itertools
import logging
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Sampler, TensorDataset

logging.basicConfig(level=logging.INFO, format="[%(asctime)s] %(message)s", datefmt="%H:%M:%S")
log = logging.getLogger("train")

CFG = dict(max_iter=600, eval_period=200, batch_size=64, lr=0.02, seed=7)


class InfiniteSampler(Sampler):
    """Iteration-based training: never-ending stream of (optionally shuffled) indices."""

    def __init__(self, size, shuffle=True, seed=0):
        self.size = size
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        g = torch.Generator()
        g.manual_seed(self.seed)
        while True:
            if self.shuffle:
                yield from torch.randperm(self.size, generator=g).tolist()
            else:
                yield from range(self.size)


def build_loader(ds, batch_size, shuffle):
    return DataLoader(ds, batch_size=batch_size, sampler=InfiniteSampler(len(ds), shuffle=shuffle, seed=CFG["seed"]),
                      num_workers=0, drop_last=False)


def make_data(n, g):
    x = torch.randn(n, 1, 16, 16, generator=g)
    q = torch.stack([x[:, 0, :8, :8].mean((1, 2)), x[:, 0, :8, 8:].mean((1, 2)),
                     x[:, 0, 8:, :8].mean((1, 2)), x[:, 0, 8:, 8:].mean((1, 2))], dim=1)
    y = q.argmax(dim=1)
    return TensorDataset(x, y)


class SmallCNN(nn.Module):
    def __init__(self, n_cls=4):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 4 * 4, n_cls)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
        total += len(y)
    model.train()
    return correct / total


def main():
    torch.manual_seed(CFG["seed"])
    g = torch.Generator().manual_seed(CFG["seed"])
    train_ds, val_ds = make_data(8000, g), make_data(1000, g)
    train_loader = build_loader(train_ds, CFG["batch_size"], shuffle=True)
    val_loader = build_loader(val_ds, 256, shuffle=False)

    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=0.9)
    log.info("Starting training from iteration 0, max_iter=%d", CFG["max_iter"])
    t0 = time.time()
    for it, (x, y) in zip(range(CFG["max_iter"]), train_loader):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (it + 1) % 50 == 0:
            log.info("iter: %d  loss: %.4f  lr: %.3g  time/iter: %.4fs", it + 1, loss.item(), CFG["lr"],
                     (time.time() - t0) / (it + 1))
        if (it + 1) % CFG["eval_period"] == 0:
            log.info("Running validation at iter %d ...", it + 1)
            acc = evaluate(model, val_loader)
            log.info("iter %d val_acc %.4f", it + 1, acc)
    log.info("Done.")


if __name__ == "__main__":
    main()
