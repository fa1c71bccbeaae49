"""Run `summarize` over a stream of runs in a local process pool, results in input order.

Only a bounded window of futures is in flight, so discovery, diagnosis and
grouping proceed together and memory stays flat however many runs there are;
yielding in input order makes the report the same for any number of processes.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from trainwreck.triage.summary import RunSummary, summarize

# Futures in flight per worker: 4 keeps each worker fed while the parent groups the
# result it waits on (a run takes ~30 ms here), and bounds what waits in memory.
IN_FLIGHT_PER_WORKER = 4


def default_jobs() -> int:
    """All cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def summaries(runs: Iterable[str], jobs: int) -> Iterator[RunSummary]:
    """The summary of each run, in the order given; `jobs == 1` runs in this process."""
    if jobs <= 1:
        yield from map(summarize, runs)
        return
    window: deque[Future[RunSummary]] = deque()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for run in runs:
            window.append(pool.submit(summarize, run))
            if len(window) >= jobs * IN_FLIGHT_PER_WORKER:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
