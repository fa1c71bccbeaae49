"""Reproduces clip_grad_norm_(error_if_nonfinite=True) aborting an fp16 GradScaler run.

Mixed-precision training with a dynamic loss scale: the first steps are expected to
overflow (the scaler then skips the step and lowers the scale). The loop unscales and
clips with error_if_nonfinite=True, so the first overflowing step raises before
scaler.step() can skip it. Runs on the CPU with float16 autocast; the initial scale is
set high so the overflow happens at once, as it does with a large model on a GPU.
Run: python repro.py > train.log 2>&1
"""

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**24)
features, labels = torch.randn(256, 16), torch.randint(0, 4, (256,))
print("precision=fp16 (autocast + GradScaler) max_grad_norm=1.0 error_if_nonfinite=True")
for step in range(1, 6):
    batch = torch.randint(0, 256, (32,))
    with torch.autocast("cpu", dtype=torch.float16):
        loss = torch.nn.functional.cross_entropy(model(features[batch]), labels[batch])
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
    scaler.step(optimizer)
    scaler.update()
    print(f"step {step} loss {loss.item():.4f} grad_norm {grad_norm.item():.4f} scale {scaler.get_scale():.0f}")
