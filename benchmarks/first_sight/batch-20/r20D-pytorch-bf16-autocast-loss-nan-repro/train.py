"""Multi-label tagger (64 tags), bf16 autocast on CPU."""
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

NUM_TAGS, DIM, EPOCHS = 64, 128, 3

torch.manual_seed(0)
torch.set_num_threads(2)


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    proj = torch.randn(DIM, NUM_TAGS, generator=torch.Generator().manual_seed(99))
    x = torch.randn(n, DIM, generator=g)
    scores = x @ proj / DIM ** 0.5
    y = (scores > 1.3).float()  # ~10% positives per tag
    return x, y


x_tr, y_tr = make_split(20000, 1)
x_va, y_va = make_split(5000, 2)
pos_frac = y_tr.mean(0)
pos_weight = ((1 - pos_frac) / pos_frac).clamp(max=20.0)
print(f"positive fraction per tag: mean {pos_frac.mean():.3f} min {pos_frac.min():.3f}")

train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=128, shuffle=True)
val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=1024)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 512), nn.SiLU(), nn.LayerNorm(512),
                                 nn.Linear(512, 512), nn.SiLU(), nn.Linear(512, NUM_TAGS))

    def forward(self, x):
        return self.net(x)


def weighted_bce(logits, targets, pos_weight, eps=1e-7):
    probs = torch.sigmoid(logits).clamp(eps, 1 - eps)
    loss = -(pos_weight * targets * torch.log(probs) + (1 - targets) * torch.log(1 - probs))
    return loss.mean()


model = Tagger()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=EPOCHS * len(train_dl))


@torch.no_grad()
def evaluate():
    model.eval()
    tp = fp = fn = 0
    for x, y in val_dl:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            pred = (model(x) > 0).float()
        tp += (pred * y).sum().item()
        fp += (pred * (1 - y)).sum().item()
        fn += ((1 - pred) * y).sum().item()
    model.train()
    return 2 * tp / max(2 * tp + fp + fn, 1)


step = 0
for epoch in range(EPOCHS):
    t0 = time.time()
    for x, y in train_dl:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(x)
            loss = weighted_bce(logits, y, pos_weight)
        optimizer.zero_grad()
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        step += 1
        if step % 25 == 0:
            print(f"step {step:5d} | loss {loss.item():.4f} | grad_norm {gnorm.item():.3f} | "
                              f"lr {scheduler.get_last_lr()[0]:.2e}", flush=True)
    f1 = evaluate()
    print(f"epoch {epoch} done in {time.time() - t0:.1f}s | val micro-F1 {f1:.4f}", flush=True)

torch.save(model.state_dict(), "tagger.pt")
