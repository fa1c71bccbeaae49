"""Closed-form activation estimate vs autograd's saved tensors, side by side, on the CPU.

Builds tiny Llama-, Mistral- and GPT-2-style models with transformers (no
downloads), runs one forward/backward at several (batch, seq) points with and
without gradient checkpointing, and prints estimate / measured per point.

Usage: python benchmarks/memory_vs_torch.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests" / "memory"))
from test_budget_vs_torch import CASES, measured_and_estimated


def main() -> None:
    header = ("model", "dtype", "ckpt", "b x s", "measured MiB", "estimate MiB", "ratio")
    print("{:8} {:5} {:5} {:>9} {:>13} {:>13} {:>6}".format(*header))
    worst = 0.0
    for name, dtype_name, checkpointing in CASES:
        for batch, seq, measured, estimate in measured_and_estimated(
            name, dtype_name, checkpointing
        ):
            ratio = estimate / measured
            worst = max(worst, abs(ratio - 1))
            print(
                f"{name:8} {dtype_name:5} {checkpointing!s:5} {f'{batch}x{seq}':>9} "
                f"{measured / 2**20:13.2f} {estimate / 2**20:13.2f} {ratio:6.3f}"
            )
    print(f"largest deviation: {worst:.1%} (acceptance: within 15%)")


if __name__ == "__main__":
    main()
