"""Land-cover classifier on per-pixel spectral features (12 bands x 9 dates).
Mixed-precision training loop shared with the GPU cluster job; runs on CPU with bf16 autocast.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
AMP_DTYPE = torch.float16 if DEVICE == "cuda" else torch.bfloat16
N_FEAT, N_CLASSES = 12 * 9, 10
EPOCHS, BATCH, LR, MOMENTUM, MAX_GRAD_NORM = 6, 256, 0.05, 0.9, 1.0


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(N_CLASSES, N_FEAT, generator=torch.Generator().manual_seed(42))
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    mix = torch.randn(N_FEAT, N_FEAT, generator=torch.Generator().manual_seed(43)) / N_FEAT ** 0.5
    x = (0.6 * protos[y] + torch.randn(n, N_FEAT, generator=g)) @ mix
    return x, y


def build_model():
    return nn.Sequential(
        nn.Linear(N_FEAT, 512), nn.LayerNorm(512), nn.GELU(), nn.Dropout(0.1),
        nn.Linear(512, 512), nn.LayerNorm(512), nn.GELU(), nn.Dropout(0.1),
        nn.Linear(512, N_CLASSES),
    )


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad(), torch.autocast(DEVICE, dtype=AMP_DTYPE):
        logits = model(x.to(DEVICE))
    model.train()
    return F.cross_entropy(logits.float(), y.to(DEVICE)).item(), (logits.argmax(1).cpu() == y).float().mean().item()


def main():
    torch.manual_seed(0)
    xtr, ytr = make_data(60_000, 0)
    xva, yva = make_data(10_000, 1)
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=BATCH, shuffle=True, drop_last=True)
    model = build_model().to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM, nesterov=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS * len(loader))
    scaler = torch.amp.GradScaler(DEVICE)
    print(f"device={DEVICE} amp_dtype={AMP_DTYPE} steps/epoch={len(loader)}")

    step = 0
    for epoch in range(EPOCHS):
        t0 = time.time()
        for xb, yb in loader:
            xb, yb = xb.to(DEVICE), yb.to(DEVICE)
            with torch.autocast(DEVICE, dtype=AMP_DTYPE):
                loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
            scaler.step(opt)
            scaler.update()
            sched.step()
            if step % 100 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} grad_norm {grad_norm.item():.1f} "
                      f"lr {sched.get_last_lr()[0]:.4f}")
            step += 1
        val_loss, val_acc = evaluate(model, xva, yva)
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
    torch.save(model.state_dict(), "landcover_mlp.pt")


if __name__ == "__main__":
    main()
