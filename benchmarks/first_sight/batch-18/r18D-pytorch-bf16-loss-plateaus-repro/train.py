import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
DTYPE = torch.bfloat16
N_CLASSES, DIM = 10, 128

# ---- synthetic embeddings -> intent classification ------------------------------
W_teacher = torch.randn(DIM, N_CLASSES)


def make_split(n):
    x = torch.randn(n, DIM)
    y = (x @ W_teacher + 0.5 * torch.randn(n, N_CLASSES)).argmax(1)
    return TensorDataset(x, y)


train_dl = DataLoader(make_split(20000), batch_size=128, shuffle=True)
val_dl = DataLoader(make_split(4000), batch_size=1000)

model = nn.Sequential(
    nn.Linear(DIM, 512), nn.GELU(), nn.LayerNorm(512),
    nn.Linear(512, 512), nn.GELU(), nn.LayerNorm(512),
    nn.Linear(512, N_CLASSES),
).to(DTYPE)

opt = torch.optim.AdamW(model.parameters(), lr=3e-5, weight_decay=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 200))


@torch.no_grad()
def evaluate():
    model.eval()
    correct, loss_sum = 0, 0.0
    for x, y in val_dl:
        logits = model(x.to(DTYPE)).float()
        loss_sum += F.cross_entropy(logits, y, reduction="sum").item()
        correct += (logits.argmax(1) == y).sum().item()
    model.train()
    return loss_sum / 4000, correct / 4000


print(f"torch {torch.__version__} | dtype {DTYPE} | params {sum(p.numel() for p in model.parameters())}")
t0 = time.time()
step = 0
for epoch in range(6):
    tot = 0.0
    for x, y in train_dl:
        logits = model(x.to(DTYPE))
        loss = F.cross_entropy(logits.float(), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        tot += loss.item()
        step += 1
    vl, va = evaluate()
    print(f"epoch {epoch + 1} | train_loss {tot / len(train_dl):.4f} | val_loss {vl:.4f} | val_acc {va:.4f} "
          f"| lr {sched.get_last_lr()[0]:.1e} | {time.time() - t0:.0f}s")
