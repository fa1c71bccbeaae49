"""Reproduces torch.compile recompiling on every new sequence length (CPU).

A small model is compiled with dynamic=False and fed batches whose sequence
length changes from step to step (no padding or bucketing), so every new
length fails a size guard and triggers a fresh compilation. TORCH_LOGS=recompiles
prints each recompilation and the guard that failed. Run: python repro.py > train.log 2>&1
"""

import os
import time

os.environ.setdefault("TORCH_LOGS", "recompiles")

import torch  # noqa: E402

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))
compiled = torch.compile(model, backend="eager", dynamic=False)
lengths = [17, 23, 31, 17, 40, 52, 23, 61]
for step, length in enumerate(lengths):
    batch = torch.randn(8, length, 32)
    start = time.perf_counter()
    loss = compiled(batch).pow(2).mean()
    loss.backward()
    elapsed_ms = (time.perf_counter() - start) * 1000
    print(f"step {step} seq_len {length} loss {loss.item():.4f} step_time_ms {elapsed_ms:.1f}", flush=True)
