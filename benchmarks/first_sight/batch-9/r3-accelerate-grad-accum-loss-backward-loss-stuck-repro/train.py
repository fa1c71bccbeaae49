import math
import time
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from accelerate import Accelerator
from accelerate.utils import set_seed

# effective batch 256 = 32 x 8 accumulation (what fit on the small box)
MICRO_BS = 32
ACCUM = 8
LR = 0.05
EPOCHS = 5

set_seed(42)
accelerator = Accelerator(gradient_accumulation_steps=ACCUM, cpu=True)

# ---- synthetic "house prices" tabular regression, standardised features/target
n, d = 10000, 24
g = torch.Generator().manual_seed(0)
X = torch.randn(n, d, generator=g)
w_true = torch.randn(d, generator=g)
y = X @ w_true + 0.5 * torch.sin(3 * X[:, 0]) * X[:, 1] + 0.3 * X[:, 2] ** 2
y = y + 0.1 * torch.randn(n, generator=g)
y = ((y - y.mean()) / y.std()).unsqueeze(1)
X_tr, y_tr, X_va, y_va = X[:8000], y[:8000], X[8000:], y[8000:]

train_dl = DataLoader(TensorDataset(X_tr, y_tr), batch_size=MICRO_BS, shuffle=True, drop_last=True)
val_dl = DataLoader(TensorDataset(X_va, y_va), batch_size=512)

model = nn.Sequential(
    nn.Linear(d, 256), nn.ReLU(),
    nn.Linear(256, 256), nn.ReLU(),
    nn.Linear(256, 1),
)
optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, weight_decay=1e-4)
updates_per_epoch = len(train_dl) // ACCUM
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=EPOCHS * updates_per_epoch)
loss_fn = nn.MSELoss()

model, optimizer, train_dl, val_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, val_dl, scheduler)
accelerator.print(f"device={accelerator.device} micro_bs={MICRO_BS} accum={ACCUM} "
                  f"effective_bs={MICRO_BS*ACCUM} lr={LR} updates/epoch={updates_per_epoch}")

def evaluate():
    model.eval()
    tot, cnt = 0.0, 0
    with torch.no_grad():
        for xb, yb in val_dl:
            pred = model(xb)
            tot += loss_fn(pred, yb).item() * len(xb)
            cnt += len(xb)
    model.train()
    return tot / cnt

update = 0
for epoch in range(EPOCHS):
    t0 = time.time()
    running, seen = 0.0, 0
    for step, (xb, yb) in enumerate(train_dl):
        with accelerator.accumulate(model):
            pred = model(xb)
            loss = loss_fn(pred, yb)
            loss.backward()
            if accelerator.sync_gradients:
                gn = accelerator.clip_grad_norm_(model.parameters(), float("inf"))
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        running += loss.item(); seen += 1
        if accelerator.sync_gradients:
            update += 1
            if update % 10 == 0:
                accelerator.print(f"epoch {epoch} update {update:4d} train_mse {running/seen:10.4f} "
                                  f"grad_norm {gn.item():10.3f} lr {scheduler.get_last_lr()[0]:.4f}")
                running, seen = 0.0, 0
    val = evaluate()
    accelerator.print(f"==> epoch {epoch} val_mse {val:.4f} ({time.time()-t0:.1f}s)")
