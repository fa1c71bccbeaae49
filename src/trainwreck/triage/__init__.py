"""`trainwreck triage`: many runs diagnosed in a local process pool and grouped by cause.

discover (which runs) → pool (`summarize` per run, streamed) → group (fold by cause)
→ render. Above the pipeline, since every run goes through `diagnose`.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainwreck.triage.discover import runs
from trainwreck.triage.group import Group, Triage, fold
from trainwreck.triage.pool import default_jobs, summaries
from trainwreck.triage.summary import RunSummary, summarize

__all__ = ["Group", "RunSummary", "Triage", "default_jobs", "summarize", "triage"]


def triage(
    paths: Sequence[str], *, jobs: int | None = None, baseline: frozenset[str] | None = None
) -> Triage:
    """Every run under `paths` diagnosed (`jobs` processes, all cores by default) and grouped."""
    return fold(summaries(runs(paths), jobs or default_jobs()), baseline)
