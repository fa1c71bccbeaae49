"""Train a small ResNet (transformers ResNetForImageClassification) on 32x32 synthetic
images with SGD+momentum. Memory is tight on the target box, so we use micro-batches of 16
and accumulate 4 of them per optimizer step (effective batch 64)."""
import math
import time

import torch
from transformers import ResNetConfig, ResNetForImageClassification

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_CLASSES, IMG = 4, 32


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, IMG, IMG, generator=g)
    y = torch.randint(0, NUM_CLASSES, (n,), generator=g)
    # class = which quadrant holds a bright square
    for i in range(n):
        r, c = divmod(int(y[i]), 2)
        ox = torch.randint(0, 8, (2,), generator=g)
        x[i, :, r * 16 + ox[0]: r * 16 + ox[0] + 8, c * 16 + ox[1]: c * 16 + ox[1] + 8] += 0.6
    return torch.utils.data.TensorDataset(x, y)


train_ds, val_ds = make_split(6144, 1), make_split(512, 2)
train_loader = torch.utils.data.DataLoader(train_ds, batch_size=16, shuffle=True, drop_last=True)
val_loader = torch.utils.data.DataLoader(val_ds, batch_size=256)

config = ResNetConfig(num_channels=3, embedding_size=16, hidden_sizes=[16, 32, 64], depths=[1, 1, 1],
                      layer_type="basic", num_labels=NUM_CLASSES, downsample_in_first_stage=False)
model = ResNetForImageClassification(config)
print(f"params: {sum(p.numel() for p in model.parameters())/1e3:.1f}K")

ACCUM, EPOCHS, BASE_LR = 4, 4, 0.05
optimizer = torch.optim.SGD(model.parameters(), lr=BASE_LR, momentum=0.9, weight_decay=5e-4, nesterov=True)
updates_per_epoch = len(train_loader) // ACCUM
scheduler = torch.optim.lr_scheduler.LambdaLR(
    optimizer, lambda u: 0.5 * (1 + math.cos(math.pi * u / (EPOCHS * updates_per_epoch))))


@torch.no_grad()
def evaluate():
    model.eval()
    correct, loss_sum = 0, 0.0
    for x, y in val_loader:
        logits = model(pixel_values=x).logits
        loss_sum += torch.nn.functional.cross_entropy(logits, y, reduction="sum").item()
        correct += (logits.argmax(-1) == y).sum().item()
    model.train()
    return loss_sum / len(val_ds), correct / len(val_ds)


t0 = time.time()
model.train()
for epoch in range(EPOCHS):
    optimizer.zero_grad(set_to_none=True)
    window = []
    for step, (x, y) in enumerate(train_loader):
        out = model(pixel_values=x, labels=y)
        (out.loss / ACCUM).backward()
        window.append(out.loss.item())
        if (step + 1) % ACCUM == 0:
            optimizer.step()
            scheduler.step()
        if (step + 1) % 64 == 0:
            print(f"epoch {epoch} step {step+1:4d} lr {scheduler.get_last_lr()[0]:.4f} "
                  f"loss {sum(window)/len(window):.4f} ({time.time()-t0:.0f}s)")
            window = []
    val_loss, val_acc = evaluate()
    print(f"== epoch {epoch} val_loss {val_loss:.4f} val_acc {val_acc:.3f}")
