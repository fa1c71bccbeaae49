"""What the always-on recorder costs a training step, beside detect_anomaly and no recorder.

A small transformer (torch.nn.TransformerEncoder) trains on the CPU under three modes, in
interleaved blocks of one run, so a change of machine load touches every mode alike:
no recorder, `trainwreck.watch`, and `torch.autograd.detect_anomaly`. Each step is timed
from its batch to the end of the optimizer step (the recorder's own `.step` included);
the medians and their ratios to no recorder are printed. Issue 21 asks for <= 1.03x.

Usage: python benchmarks/recorder_overhead.py [--rounds N]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
import warnings

import torch

from trainwreck.recorder.watch import watch

# Blocks per mode and steps per block: 10 x 25 = 250 timed steps per mode (issue 21: a
# median of >= 200), in blocks short enough that load drifts hit all three modes alike.
ROUNDS = 10
BLOCK = 25
# The model: a small two-layer encoder, about 4.6 ms a step on one CPU thread; a short step
# makes the recorder's fixed cost per step weigh the most.
LAYERS, WIDTH, HEADS, BATCH, SEQ = 2, 64, 4, 8, 32


def _model() -> tuple[torch.nn.Module, torch.optim.Optimizer]:
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(WIDTH, HEADS, 4 * WIDTH, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
    return model, torch.optim.AdamW(model.parameters(), lr=1e-4)


def _block(model: torch.nn.Module, optimizer: torch.optim.Optimizer, mode: str) -> list[float]:
    """BLOCK timed steps under one mode."""
    handle = watch(model, optimizer, out=tempfile.mkdtemp()) if mode == "watch" else None
    anomaly = torch.autograd.detect_anomaly() if mode == "detect_anomaly" else None
    times = []
    with anomaly or contextlib.nullcontext():
        for _ in range(BLOCK):
            batch = torch.randn(BATCH, SEQ, WIDTH)
            start = time.perf_counter()
            loss = model(batch).pow(2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if handle is not None:
                handle.step(loss)
            times.append(time.perf_counter() - start)
    if handle is not None:
        handle.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    rounds = parser.parse_args().rounds
    # One intra-op thread: on a shared 2-core machine a thread pool's wake-ups dominate
    # the spread of step times; the writer thread then has the other core.
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")  # detect_anomaly warns on entry that it is slow
    model, optimizer = _model()
    modes = ("none", "watch", "detect_anomaly")
    _block(model, optimizer, "none")  # untimed: the allocator and autograd engine settle
    times: dict[str, list[float]] = {mode: [] for mode in modes}
    for round_ in range(rounds):
        for mode in modes[round_ % 3 :] + modes[: round_ % 3]:  # rotate who goes first
            times[mode] += _block(model, optimizer, mode)
    base = statistics.median(times["none"])
    print(f"{'mode':16} {'steps':>6} {'median ms':>10} {'ratio':>7}")
    for mode in modes:
        median = statistics.median(times[mode])
        print(f"{mode:16} {len(times[mode]):>6} {1000 * median:>10.3f} {median / base:>6.3f}x")


if __name__ == "__main__":
    main()
