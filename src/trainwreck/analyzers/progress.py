"""How long a phase the log shows a progress bar for takes: elapsed + remaining.

A tqdm bar prints `[elapsed<remaining, rate]` (`[29:55<4:48:08, 155.57 examples/s]`),
so a rank-local phase that outlived the distributed timeout says, on the same line,
how long it needs in all: what a raised timeout has to exceed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from trainwreck.model import LogLine

_BAR = re.compile(r"\[(?P<elapsed>\d+(?::\d{2}){1,2})<(?P<remaining>\d+(?::\d{2}){1,2}),")


def clock_seconds(text: str) -> int:
    """`4:48:08` → 17288, `29:55` → 1795 (tqdm's [h:]mm:ss)."""
    seconds = 0
    for part in text.split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def longest_phase(lines: Iterable[LogLine]) -> tuple[int, LogLine] | None:
    """The longest elapsed + remaining any progress bar in the log estimates, with its line."""
    best: tuple[int, LogLine] | None = None
    for line in lines:
        for bar in _BAR.finditer(line.text):
            total = clock_seconds(bar["elapsed"]) + clock_seconds(bar["remaining"])
            if best is None or total > best[0]:
                best = (total, line)
    return best
