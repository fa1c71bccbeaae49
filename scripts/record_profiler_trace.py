"""Record a real torch.profiler trace of a small CPU training loop with two planted stalls.

    python scripts/record_profiler_trace.py OUT_DIR

The Dataset's __getitem__ sleeps SLEEP_S per sample (a data-loading stall of
BATCH_SIZE x SLEEP_S per step, num_workers=0) and the forward pass reads one value per
layer with .item() (LAYERS host reads per step). Writes OUT_DIR/planted_cpu.pt.trace.json.gz
(the trace torch writes, gzipped) and OUT_DIR/planted_cpu.json: the planting and each
profiled step's wall time measured here with perf_counter, independently of the profiler,
so a test can compute the data-wait share the planting implies.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
import time
from pathlib import Path

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, schedule
from torch.utils.data import DataLoader, Dataset

SLEEP_S = 0.004
BATCH_SIZE = 8
LAYERS = 4
WIDTH = 2048
WAIT, WARMUP, ACTIVE = 1, 1, 8
NAME = "planted_cpu"


class SleepyDataset(Dataset[tuple[torch.Tensor, torch.Tensor]]):
    """Random samples, each costing SLEEP_S of (simulated) decoding."""

    def __len__(self) -> int:
        return BATCH_SIZE * (WAIT + WARMUP + ACTIVE + 1)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        time.sleep(SLEEP_S)
        return torch.randn(WIDTH), torch.randn(WIDTH)


def train(trace_path: Path) -> dict[str, float]:
    """Run the profiled loop; each ProfilerStep#N's wall time in seconds, by N."""
    torch.manual_seed(0)
    layers = nn.ModuleList(nn.Linear(WIDTH, WIDTH) for _ in range(LAYERS))
    optimizer = torch.optim.SGD(layers.parameters(), lr=1e-3)
    loader = DataLoader(SleepyDataset(), batch_size=BATCH_SIZE, num_workers=0)
    plan = schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1)
    walls: dict[str, float] = {}
    with profile(
        activities=[ProfilerActivity.CPU],
        schedule=plan,
        on_trace_ready=lambda done: done.export_chrome_trace(str(trace_path)),
    ) as profiler:
        last = time.perf_counter()
        for step, (inputs, targets) in enumerate(loader):
            hidden = inputs
            for layer in layers:
                hidden = torch.relu(layer(hidden))
                hidden.detach().abs().max().item()  # the planted host read, one per layer
            loss = nn.functional.mse_loss(hidden, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            walls[str(step)] = time.perf_counter() - last  # ProfilerStep#<step>: the loop body
            profiler.step()  # (exports the trace after the last active step: not timed)
            last = time.perf_counter()
            if step + 1 == WAIT + WARMUP + ACTIVE:
                break
    first_active = WAIT + WARMUP
    return {key: value for key, value in walls.items() if int(key) >= first_active}


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    raw = out / f"{NAME}.pt.trace.json"
    walls = train(raw)
    with raw.open("rb") as source, gzip.open(out / f"{raw.name}.gz", "wb") as target:
        shutil.copyfileobj(source, target)
    raw.unlink()
    planting = {
        "made_by": "scripts/record_profiler_trace.py",
        "torch": torch.__version__,
        "sleep_s_per_sample": SLEEP_S,
        "batch_size": BATCH_SIZE,
        "host_reads_per_step": LAYERS,
        "step_wall_s": walls,
    }
    (out / f"{NAME}.json").write_text(json.dumps(planting, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out / NAME}.pt.trace.json.gz and {NAME}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
