"""Image-patch classifier with accelerate (CPU), gradient accumulation to reach an effective batch of 256."""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

MICRO_BATCH, ACCUM, EPOCHS, MAX_LR = 64, 4, 6, 3e-3

accelerator = Accelerator(gradient_accumulation_steps=ACCUM, cpu=True)
set_seed(0)
torch.set_num_threads(2)


def make_patches(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 3, 8, 8, generator=torch.Generator().manual_seed(5))
    y = torch.randint(0, 10, (n,), generator=g)
    x = protos[y] + 1.5 * torch.randn(n, 3, 8, 8, generator=g)
    return TensorDataset(x, y)


train_dl = DataLoader(make_patches(16000, 1), batch_size=MICRO_BATCH, shuffle=True, drop_last=True)
val_dl = DataLoader(make_patches(3000, 2), batch_size=500)

model = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10),
)
optimizer = torch.optim.AdamW(model.parameters(), lr=MAX_LR, weight_decay=0.05)
steps_per_epoch = math.ceil(len(train_dl) / ACCUM)  # optimizer steps, not micro-batches
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=MAX_LR, total_steps=EPOCHS * steps_per_epoch,
                                                pct_start=0.2)
model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)
accelerator.print(f"{len(train_dl)} micro-batches/epoch, {steps_per_epoch} optimizer steps/epoch, "
                  f"effective batch {MICRO_BATCH * ACCUM}, total optimizer steps {EPOCHS * steps_per_epoch}")


@torch.no_grad()
def evaluate():
    model.eval()
    correct = total = 0
    for x, y in val_dl:
        preds = accelerator.gather_for_metrics(model(x).argmax(1))
        labels = accelerator.gather_for_metrics(y)
        correct += (preds == labels).sum().item()
        total += labels.numel()
    model.train()
    return correct / total


for epoch in range(EPOCHS):
    t0 = time.time()
    model.train()
    running = 0.0
    for i, (x, y) in enumerate(train_dl):
        with accelerator.accumulate(model):
            loss = F.cross_entropy(model(x), y)
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        running += loss.item()
        if (i + 1) % 100 == 0:
            accelerator.print(f"epoch {epoch} iter {i + 1:4d} | loss {loss.item():.4f} | "
                              f"lr {scheduler.get_last_lr()[0]:.2e}")
    acc = evaluate()
    accelerator.print(f"epoch {epoch} | train_loss {running / len(train_dl):.4f} | val_acc {acc:.4f} | "
                      f"{time.time() - t0:.1f}s")

accelerator.wait_for_everyone()
accelerator.save(accelerator.unwrap_model(model).state_dict(), "patch_cls.pt")
