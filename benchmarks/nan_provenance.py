"""The planted NaN bugs, side by side: what detect_anomaly blames vs what first_bad_op names.

For each bug in tests/recorder/planted.py, one step runs under
`torch.autograd.detect_anomaly()` (the op its error names, parsed from its message) and
one under `first_bad_op` (op, forward op for a backward one, file:line), each on a fresh
seeded model; wall times are medians of REPEATS runs, beside a plain step's.

Usage: python benchmarks/nan_provenance.py
"""

from __future__ import annotations

import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent.parent / "tests" / "recorder"))
from planted import BUGS, Step, line_of, make

from trainwreck.recorder.provenance import first_bad_op

# Runs per tool and bug: a step takes about a millisecond, so the median of 21 is stable to
# a few percent on a shared 2-core machine, and it drops the first call's warm-up.
REPEATS = 21
# detect_anomaly's error names the backward node whose output held NaN.
ANOMALY_BLAME = re.compile(r"Function '(?P<node>\w+)' returned nan values")


def _anomaly(step: Step) -> str:
    """The op detect_anomaly's error names, or what it did instead of raising."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns on entry that it slows the run down
        try:
            with torch.autograd.detect_anomaly():
                step()
        except RuntimeError as error:
            blamed = ANOMALY_BLAME.search(str(error))
            return blamed["node"] if blamed else str(error).splitlines()[0][:40]
    return "(no error)"


def _ours(step: Step) -> str:
    found = first_bad_op(step)
    if found is None:
        return "(none)"
    place = f"{Path(found.site.file or '?').name}:{found.site.line}"
    if found.in_backward:
        return f"{found.op} ({found.autograd_node} of {found.site.op}) @ {place}"
    return f"{found.op} @ {place}"


def _median_ms(run: Callable[[Step], object], bug: str) -> float:
    """Median wall time of `run` on one step; each run gets a fresh model and batch."""
    times = []
    for _ in range(REPEATS):
        step = make(bug)
        start = time.perf_counter()
        run(step)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _plain(step: Step) -> None:
    step()


def main() -> None:
    # One intra-op thread: on a shared 2-core machine, waking a thread pool for these tiny
    # ops costs multiples of a scheduler tick (~8 ms) and drowns the step times.
    torch.set_num_threads(1)
    header = ("bug", "planted at", "detect_anomaly", "ms", "first_bad_op", "ms", "plain ms")
    print("{:19} {:14} {:22} {:>6}  {:70} {:>6} {:>6}".format(*header))
    for bug in BUGS:
        row = (
            bug,
            f"planted.py:{line_of(bug)}",
            _anomaly(make(bug)),
            _median_ms(_anomaly, bug),
            _ours(make(bug)),
            _median_ms(_ours, bug),
            _median_ms(_plain, bug),
        )
        print("{:19} {:14} {:22} {:6.1f}  {:70} {:6.1f} {:6.1f}".format(*row))
    print(f"ms: median wall time of one step (model and batch built outside it), {REPEATS} runs")


if __name__ == "__main__":
    main()
