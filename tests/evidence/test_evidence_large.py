"""A 200 MB log: bounded memory and scan speed, measured in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# Peak RSS of this process alone: VmHWM (ru_maxrss of an exec'd child can carry the
# forking parent's RSS on Linux, and pytest's process may hold torch).
MEASURE = r"""
import json, resource, sys, time

def peak_rss_mb():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

from trainwreck.evidence.collect import collect
start, cpu_start = time.perf_counter(), time.process_time()
evidence = collect([sys.argv[1]])
seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
final = evidence.final_exception
print(json.dumps({
    "seconds": seconds,
    "cpu_seconds": cpu_seconds,
    "max_rss_mb": peak_rss_mb(),
    "lines_read": evidence.files[0].lines_read,
    "final": [final.type, final.message, final.line] if final else None,
    "nan_lines": [line.line for line in evidence.lines if "loss: nan" in line.text],
}))
"""


def _write_log(path: Path, target_bytes: int) -> int:
    """A plain training log with one NaN and one crash at the end; returns line count."""
    template = (
        "2024-05-01 12:00:00,123 - INFO - trainer - step {step} loss 1.2345 lr 1.0e-05 "
        "grad_norm 0.873 tokens/s 12345.6 | epoch 0.50\n"
    )
    block = "".join(template.format(step=step) for step in range(10_000)).encode()
    lines = 0
    with path.open("wb") as handle:
        while handle.tell() < target_bytes:
            handle.write(block)
            lines += 10_000
        handle.write(b"step 999 loss: nan\n")
        handle.write(b"Traceback (most recent call last):\n")
        handle.write(b'  File "train.py", line 10, in <module>\n    step()\n')
        handle.write(
            b"RuntimeError: Function 'MulBackward0' returned nan values in its 0th output.\n"
        )
    return lines + 5


@pytest.mark.slow
def test_200mb_log_peak_rss_and_speed(tmp_path: Path) -> None:
    log = tmp_path / "big.log"
    lines = _write_log(log, 200 * 1024 * 1024)
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(log)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    measured = json.loads(result.stdout)
    size_mb = log.stat().st_size / 1e6
    print(
        f"\n200 MB log: {measured}  ({size_mb / measured['seconds']:.0f} MB/s wall, "
        f"{size_mb / measured['cpu_seconds']:.0f} MB/s CPU)"
    )
    assert measured["max_rss_mb"] < 300
    assert measured["lines_read"] == lines
    assert measured["final"] == [
        "RuntimeError",
        "Function 'MulBackward0' returned nan values in its 0th output.",
        lines - 3,
    ]
    assert measured["nan_lines"] == [lines - 4]
