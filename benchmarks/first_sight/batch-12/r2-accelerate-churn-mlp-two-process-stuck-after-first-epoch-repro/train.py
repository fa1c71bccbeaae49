"""Churn classifier on tabular CRM features, trained with Accelerate (2 CPU processes).

launch:  torchrun --nproc_per_node 2 train.py
"""
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

EPOCHS = 5
BATCH = 64
CKPT_DIR = "checkpoints"


def make_data(n=4096, d=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    logits = x @ w * 0.7 + 0.3 * torch.randn(n, generator=g)
    y = (logits > 0.5).long()
    return x, y


class ChurnMLP(nn.Module):
    def __init__(self, d_in=24, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2),
        )

    def forward(self, x):
        return self.net(x)


def main():
    accelerator = Accelerator(cpu=True)
    set_seed(42)
    x, y = make_data()
    n_val = 512
    train_ds = TensorDataset(x[n_val:], y[n_val:])
    val_ds = TensorDataset(x[:n_val], y[:n_val])
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = ChurnMLP()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-2)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)
    accelerator.print(f"processes: {accelerator.num_processes}  "
                      f"train batches/process: {len(train_dl)}")

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        for step, (xb, yb) in enumerate(train_dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            if step % 10 == 0:
                print(f"[rank {accelerator.process_index}] epoch {epoch} step {step:3d} "
                      f"loss {loss.item():.4f}", flush=True)

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                preds = model(xb).argmax(-1)
                preds, yb = accelerator.gather_for_metrics((preds, yb))
                correct += (preds == yb).sum().item()
                total += yb.numel()
        accelerator.print(f"epoch {epoch}: val acc {correct / total:.4f} "
                          f"({time.time() - t0:.1f}s)")

        # checkpoint once per epoch from the main process
        if accelerator.is_main_process:
            accelerator.wait_for_everyone()   # all ranks must have finished the epoch
            os.makedirs(CKPT_DIR, exist_ok=True)
            state = accelerator.unwrap_model(model).state_dict()
            accelerator.save(state, os.path.join(CKPT_DIR, f"epoch{epoch}.pt"))
            print(f"[rank 0] saved checkpoint for epoch {epoch}", flush=True)

    accelerator.wait_for_everyone()
    accelerator.print("training finished")
    accelerator.end_training()


if __name__ == "__main__":
    main()
