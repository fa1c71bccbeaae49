"""Intent classifier (TF-IDF-like hashed features -> MLP) trained with accelerate + grad accumulation."""
import argparse
import time

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

RECIPE = {  # team recipe, tuned on the 8-worker cluster
    "global_batch_size": 4096,
    "grad_accum_steps": 32,
    "lr": 1e-3,
    "epochs": 4,
    "hidden": 512,
    "n_features": 2048,
    "n_classes": 20,
}
WORKSTATION = {"global_batch_size": 16, "epochs": 2}


def synthetic_intents(n, cfg, gen):
    centers = torch.randn(cfg["n_classes"], cfg["n_features"], generator=gen)
    y = torch.randint(0, cfg["n_classes"], (n,), generator=gen)
    x = centers[y] * 0.3 + torch.randn(n, cfg["n_features"], generator=gen)
    return x, y


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workstation", action="store_true")
    args = p.parse_args()
    cfg = {**RECIPE, **(WORKSTATION if args.workstation else {})}

    accelerator = Accelerator(gradient_accumulation_steps=cfg["grad_accum_steps"])
    set_seed(0)
    per_device_bs = cfg["global_batch_size"] // (cfg["grad_accum_steps"] * accelerator.num_processes)
    accelerator.print(f"torch {torch.__version__} | processes={accelerator.num_processes} "
                      f"| global_batch={cfg['global_batch_size']} accum={cfg['grad_accum_steps']}")

    gen = torch.Generator().manual_seed(0)
    x, y = synthetic_intents(12000, cfg, gen)
    train_dl = DataLoader(TensorDataset(x[:10000], y[:10000]), batch_size=per_device_bs, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[10000:], y[10000:]), batch_size=256)

    model = nn.Sequential(nn.Linear(cfg["n_features"], cfg["hidden"]), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(cfg["hidden"], cfg["n_classes"]))
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)

    for epoch in range(cfg["epochs"]):
        model.train()
        t0 = time.time()
        for xb, yb in train_dl:
            with accelerator.accumulate(model):
                loss = nn.functional.cross_entropy(model(xb), yb)
                accelerator.backward(loss)
                opt.step()
                opt.zero_grad()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                preds, labels = accelerator.gather_for_metrics((model(xb).argmax(1), yb))
                correct += (preds == labels).sum().item()
                total += len(labels)
        accelerator.print(f"epoch {epoch} loss {loss.item():.4f} val_acc {correct / total:.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
