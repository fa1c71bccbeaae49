"""Many rank logs at once: wall time and peak memory of one `trainwreck diagnose` over them.

Generates a run directory the way `torchrun --log-dir` lays it out
(`attempt_0/<rank>/stderr.log`), one file per rank, each a healthy training log of
`--mb` MiB (per-step lines, tqdm redraws, warnings) ending the way a real hang ends:
every rank but one prints an NCCL watchdog timeout for the same all-reduce, the
odd rank printed its last step and nothing more. Then runs the CLI on the folder in
a fresh process and prints its wall time, its peak RSS (ru_maxrss of the child), the
bytes read per second, and whether the report named the silent rank.

The issue's scale is 1,000 ranks x 100 MiB (100 GiB); the default here is 1,000 x 1 MiB,
which a two-core machine reads in about a minute. Pass `--mb 100` where disk and time allow.

Usage: python benchmarks/rank_logs.py [--ranks 1000] [--mb 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MIB = 1 << 20
_STEP = (
    "{{'loss': {loss:.4f}, 'grad_norm': 0.91, 'learning_rate': 1.98e-05, 'epoch': 0.12}}\n"
    " 12%|#         | {step}/100000 [01:02<07:38,  1.92it/s]\n"
    "[2026-12-05 10:00:01,123] [INFO] [engine.py:96] step={step}, skipped=0, lr=[1.98e-05]\n"
)
_TIMEOUT = (
    "[E1205 10:42:11.000000 {pid} ProcessGroupNCCL.cpp:632] [Rank {rank}] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum=48213, OpType=ALLREDUCE, NumelIn=262144, "
    "NumelOut=262144, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n"
)


def write_rank(path: Path, rank: int, size: int, silent: int) -> None:
    """One rank's stderr: steps until `size` bytes, then its end."""
    path.parent.mkdir(parents=True, exist_ok=True)
    written, step = 0, 0
    with path.open("w") as out:
        while written < size:
            block = "".join(_STEP.format(loss=2.0 - step * 1e-6, step=step + i) for i in range(100))
            out.write(block)
            written += len(block)
            step += 100
        if rank == silent:
            out.write(f"rank {rank}: loading shard 4812 of the dataset\n")
        else:
            out.write(_TIMEOUT.format(pid=1000 + rank, rank=rank))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=1000)
    parser.add_argument("--mb", type=float, default=1.0, help="MiB per rank log")
    parser.add_argument("--keep", type=Path, help="write the run folder here and keep it")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="rank-logs-"))
    silent = args.ranks // 3
    run = root / "run" / "attempt_0"
    start = time.perf_counter()
    for rank in range(args.ranks):
        write_rank(run / str(rank) / "stderr.log", rank, int(args.mb * MIB), silent)
    total = sum(path.stat().st_size for path in run.rglob("*.log"))
    print(
        f"generated {args.ranks} rank logs, {total / MIB:.0f} MiB, in "
        f"{time.perf_counter() - start:.1f} s (rank {silent} is the silent one)"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "trainwreck", "diagnose", str(run), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    report = json.loads(result.stdout) if result.returncode == 0 else {}
    top = report.get("hypotheses", [{}])[0]
    named = f"rank {silent} never reached" in top.get("root_cause", "")
    print(
        f"diagnose: exit {result.returncode}, {wall:.1f} s wall, "
        f"{total / MIB / wall:.1f} MiB/s, peak RSS {peak_kib / 1024:.0f} MiB"
        f"{'' if peak_kib > before else ' (not above an earlier child)'}"
    )
    print(f"top: {top.get('id')} ({top.get('confidence')}); silent rank named: {named}")
    if not args.keep:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
