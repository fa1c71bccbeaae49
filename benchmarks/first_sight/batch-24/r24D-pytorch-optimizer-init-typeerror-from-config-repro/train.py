import argparse
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import yaml
from torch.utils.data import DataLoader, TensorDataset

DEFAULT_CONFIG = """
experiment: seq-clf-baseline
data:
  n_train: 16000
  n_val: 2000
  seq_len: 32
  vocab: 500
  n_classes: 4
model:
  d_model: 128
  n_layers: 2
  n_heads: 4
  dropout: 0.1
optim:
  name: adamw
  lr: 3e-4
  weight_decay: 0.01
  betas: [0.9, 0.98]
  warmup_steps: 200
train:
  epochs: 3
  batch_size: 64
  grad_clip: 1.0
"""


def make_data(n, seq_len, vocab, n_classes, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(1, vocab, (n, seq_len), generator=g)
    marker = torch.randint(0, n_classes, (n,), generator=g)
    pos = torch.randint(0, seq_len, (n,), generator=g)
    x[torch.arange(n), pos] = marker + 1
    return x, marker


class SeqClassifier(nn.Module):
    def __init__(self, vocab, n_classes, d_model, n_layers, n_heads, dropout, seq_len):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.zeros(1, seq_len, d_model))
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, dropout, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, n_layers)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, x):
        h = self.enc(self.tok(x) + self.pos)
        return self.head(h.mean(1))


def build_optimizer(model, cfg):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.ndim < 2 or name.endswith("pos") else decay).append(p)
    groups = [{"params": decay, "weight_decay": cfg["weight_decay"]},
              {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg["lr"], betas=tuple(cfg["betas"]))


def warmup_cosine(step, warmup, total):
    if step < warmup:
        return (step + 1) / warmup
    return 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default=None)
    args = ap.parse_args()
    cfg = yaml.safe_load(open(args.config) if args.config else DEFAULT_CONFIG)
    print(f"torch {torch.__version__} | experiment {cfg['experiment']}")
    torch.manual_seed(0)

    d, m, o, t = cfg["data"], cfg["model"], cfg["optim"], cfg["train"]
    train_dl = DataLoader(TensorDataset(*make_data(d["n_train"], d["seq_len"], d["vocab"], d["n_classes"], 0)),
                          batch_size=t["batch_size"], shuffle=True)
    val_x, val_y = make_data(d["n_val"], d["seq_len"], d["vocab"], d["n_classes"], 1)
    model = SeqClassifier(d["vocab"], d["n_classes"], m["d_model"], m["n_layers"], m["n_heads"], m["dropout"], d["seq_len"])
    opt = build_optimizer(model, o)
    total = t["epochs"] * len(train_dl)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: warmup_cosine(s, o["warmup_steps"], total))

    for epoch in range(t["epochs"]):
        model.train()
        t0, tot = time.time(), 0.0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), t["grad_clip"])
            opt.step()
            sched.step()
            tot += loss.item()
        model.eval()
        with torch.no_grad():
            acc = (model(val_x).argmax(1) == val_y).float().mean().item()
        print(f"epoch {epoch} | loss {tot / len(train_dl):.4f} | val_acc {acc:.4f} | lr {sched.get_last_lr()[0]:.2e} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
