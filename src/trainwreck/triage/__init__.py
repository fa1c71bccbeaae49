"""`trainwreck triage`: many runs diagnosed in a local process pool (or on Ray) and grouped.

discover (which runs) → an engine (`summarize` per run, streamed in input order: `pool`
by default, `ray_engine` when asked for) → group (fold by cause) → render. Above the
pipeline, since every run goes through `diagnose`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from trainwreck.triage.discover import runs
from trainwreck.triage.group import Group, Triage, fold
from trainwreck.triage.pool import default_jobs, summaries
from trainwreck.triage.summary import RunSummary, summarize

__all__ = ["Engine", "Group", "RunSummary", "Triage", "default_jobs", "summarize", "triage"]

# Runs in, their summaries out in the same order: `pool.summaries` or `ray_engine.ray_summaries`.
Engine = Callable[[Iterable[str]], Iterator[RunSummary]]


def triage(
    paths: Sequence[str],
    *,
    jobs: int | None = None,
    baseline: frozenset[str] | None = None,
    engine: Engine | None = None,
) -> Triage:
    """Every run under `paths` diagnosed and grouped.

    `engine` runs `summarize` over the runs; by default the local process pool with
    `jobs` processes (all cores when not given).
    """
    summarize_all = engine or partial(summaries, jobs=jobs or default_jobs())
    return fold(summarize_all(runs(paths)), baseline)
