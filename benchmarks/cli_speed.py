"""CLI speed, measured side by side in one run (ratios, not absolute timings).

1. Cold wall times as ratios to `python -c pass`, a new process each time,
   beside issue 19's targets: `trainwreck --help`, `trainwreck diagnose` on a
   three-line traceback (the fixed cost of a run) and on a 1 MB log, and the
   first of those 1 MB runs against the median of the later ones (what the first
   run after an install pays). Beside them, the floor the issue's own stack sets:
   a process that imports Click and pydantic and validates one model. The
   package's bytecode is compiled first, as `pip install` does, so no run pays
   for compiling it (PYTHONDONTWRITEBYTECODE would otherwise make every run
   compile every module).
2. Scan throughput on a generated log (1 GB by default; `--scan-mb 0` skips it)
   in MB/s, as a ratio to `grep -c -P` over the same signatures (PCRE, since the
   KB's regexes use Python/Perl syntax such as `\\d` and named groups, which
   `grep -E` lacks).

Usage: python benchmarks/cli_speed.py [--scan-mb 1024] [--repeat 5]
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trainwreck import analyzers
from trainwreck.kb import load

# A realistic training log body: HF Trainer dicts, tqdm bars, warnings.
_BODY = [
    "{'loss': 1.8734, 'grad_norm': 0.9121, 'learning_rate': 1.98e-05, 'epoch': 0.12}\n",
    " 12%|█▏        | 120/1000 [01:02<07:38,  1.92it/s]\n",
    "[2024-05-01 10:00:01,123] [INFO] [logging.py:96:log_dist] [Rank 0] step=120, skipped=0\n",
    "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:460: UserWarning: "
    "torch.utils.checkpoint: please pass in use_reentrant=True or use_reentrant=False "
    "explicitly.\n",
    "wandb: Syncing run bright-sun-12\n",
]
_OOM_TAIL = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 88, in <module>\n'
    "    trainer.train()\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total "
    "capacity of 79.15 GiB of which 1.03 GiB is free. Including non-PyTorch memory, this process "
    "has 78.10 GiB memory in use. Of the allocated memory 71.34 GiB is allocated by PyTorch, and "
    "4.87 GiB is reserved by PyTorch but unallocated.\n"
)


def write_log(path: Path, size_bytes: int) -> None:
    """A log of about `size_bytes`, healthy lines and an OOM traceback at the end."""
    block = "".join(_BODY * 200).encode()
    with path.open("wb") as out:
        written = 0
        while written < size_bytes:
            out.write(block)
            written += len(block)
        out.write(_OOM_TAIL.encode())


def median_seconds(
    command: list[str], repeat: int, ok: tuple[int, ...] = (0,), env: dict[str, str] | None = None
) -> float:
    """Median wall time; a run that fails would time the failure, so it stops the benchmark."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
            env={**os.environ, **(env or {})},
        )
        times.append(time.perf_counter() - start)
        if result.returncode not in ok:
            sys.exit(f"{command[0]} failed ({result.returncode}): {result.stderr.decode()[:300]}")
    return statistics.median(times)


def grep_groups(grep: str, parts: tuple[str, ...], size: int = 64) -> list[str]:
    """The signatures joined into as few PCRE patterns as grep can compile.

    PCRE caps a compiled pattern's size, so one alternation of every signature
    is too large; grep then runs once per group and the times add up.
    """
    groups: list[str] = []
    start = 0
    while start < len(parts):
        count = min(size, len(parts) - start)
        while True:
            pattern = "|".join(parts[start : start + count])
            probe = subprocess.run(
                [grep, "-c", "-P", pattern, "/dev/null"], capture_output=True, check=False
            )
            if probe.returncode in (0, 1) or count == 1:
                break
            count //= 2
        groups.append(pattern)
        start += count
    return groups


_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 3, in <module>\n'
    "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x8 and 16x2)\n"
)
# What any implementation of the issue pays before its own code runs.
_STACK_FLOOR = (
    "import click\nfrom pydantic import BaseModel\n"
    "class Report(BaseModel):\n    root_cause: str\nReport(root_cause='x')\n"
)


# Issue 19's targets: each ratio to `python -c pass`, and the first run to a later one.
HELP_TARGET = 4.0
TRACEBACK_TARGET = 10.0
LOG_TARGET = 15.0
FIRST_RUN_TARGET = 1.2


def trainwreck_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "trainwreck", "diagnose", *args]


def row(name: str, seconds: float, ratio: float, target: float, of: str = "python -c pass") -> str:
    """One line of the table: the time, its ratio and the issue's target for it."""
    verdict = "meets" if ratio <= target else "misses"
    return (
        f"{name:32} {seconds * 1000:8.1f} ms {ratio:7.2f}x {of:>16}"
        f"   target <= {target:g}x ({verdict})"
    )


def startup(tmp: Path, repeat: int) -> None:
    """The start-up ratios against issue 19's targets."""
    small = tmp / "train-1mb.log"
    write_log(small, 2**20)
    tiny = tmp / "traceback.log"
    tiny.write_text(_TRACEBACK)
    baseline = median_seconds([sys.executable, "-c", "pass"], repeat)
    floor = median_seconds([sys.executable, "-c", _STACK_FLOOR], repeat)
    command = trainwreck_command(str(small), "--format", "json")
    first = median_seconds(command, 1)  # the first run after install: nothing to warm
    cold = median_seconds(command, repeat)
    fixed = median_seconds(trainwreck_command(str(tiny)), repeat)
    help_text = median_seconds([sys.executable, "-m", "trainwreck", "--help"], repeat)
    print(f"{'python -c pass':32} {baseline * 1000:8.1f} ms")
    print(f"{'Click + one pydantic model':32} {floor * 1000:8.1f} ms {floor / baseline:7.2f}x")
    print(row("trainwreck --help", help_text, help_text / baseline, HELP_TARGET))
    print(row("diagnose, 3-line traceback", fixed, fixed / baseline, TRACEBACK_TARGET))
    print(row("diagnose, 1 MB log", cold, cold / baseline, LOG_TARGET))
    print(row("first 1 MB run after install", first, first / cold, FIRST_RUN_TARGET, "a later run"))


def scan(tmp: Path, scan_mb: int) -> None:
    """Scan throughput on a large log, against grep over the same signatures."""
    big = tmp / "train-big.log"
    write_log(big, scan_mb * 2**20)
    size_mb = big.stat().st_size / 2**20
    seconds = median_seconds(trainwreck_command(str(big), "--format", "json"), 1)
    print(
        f"trainwreck scan ({size_mb:.0f} MB):      {seconds:8.2f} s = {size_mb / seconds:7.1f} MB/s"
    )
    grep = shutil.which("grep")
    if grep is None:
        print("grep not found: no ratio")
        return
    groups = grep_groups(grep, load().keep_parts(analyzers.KEEP))
    grep_time = sum(
        median_seconds([grep, "-c", "-P", group, str(big)], 1, ok=(0, 1)) for group in groups
    )
    print(
        f"grep -c -P, same signatures in {len(groups)} runs: {grep_time:6.2f} s = "
        f"{size_mb / grep_time:7.1f} MB/s"
    )
    print(f"scan ratio trainwreck/grep:     {seconds / grep_time:8.1f}x  (target <= 5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scan-mb", type=int, default=1024, help="size of the scan log in MB (0: no scan)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    compileall.compile_dir(Path(analyzers.__file__).parent.parent, quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        startup(Path(tmp), args.repeat)
        if args.scan_mb > 0:
            scan(Path(tmp), args.scan_mb)


if __name__ == "__main__":
    main()
