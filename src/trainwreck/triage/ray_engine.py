"""Run `summarize` over a stream of runs as Ray tasks, results in input order.

For fleets one machine cannot get through: the same per-run function as the
process pool, on a Ray cluster. Each task reads its run where it lies (a path
every node can see) and sends back only the small summary; a bounded window of
tasks is in flight, as in `pool`, so memory stays flat and the report is the
same as the pool's. Only this module imports Ray, and the CLI loads it only for
`--engine ray`, since Ray is an optional, heavy extra.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import ray

from trainwreck.triage.pool import IN_FLIGHT_PER_WORKER
from trainwreck.triage.summary import RunSummary, summarize

_remote_summarize = ray.remote(summarize)


@contextmanager
def cluster(address: str | None) -> Iterator[None]:
    """Ray connected: to `address`, else a local instance; shut down only if started here.

    A caller that already ran `ray.init` (a test, a notebook) keeps its cluster.
    """
    if ray.is_initialized():
        yield
        return
    ray.init(address=address)
    try:
        yield
    finally:
        ray.shutdown()


def ray_summaries(runs: Iterable[str], address: str | None = None) -> Iterator[RunSummary]:
    """The summary of each run, in the order given, each computed in a Ray task."""
    with cluster(address):
        cpus = int(ray.cluster_resources().get("CPU", 1))
        cap = max(cpus, 1) * IN_FLIGHT_PER_WORKER
        window: deque[ray.ObjectRef[RunSummary]] = deque()
        for run in runs:
            window.append(_remote_summarize.remote(run))
            if len(window) >= cap:
                yield ray.get(window.popleft())
        while window:
            yield ray.get(window.popleft())
