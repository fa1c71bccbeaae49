"""Summaries folded into groups by cause, one run at a time.

A group keeps counts, the first and last time seen, a capped list of its runs and
the versions of each framework it ran with, so the fold's memory grows with the
number of causes, not with the number of runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from trainwreck.triage.summary import RunSummary

# Runs listed per group (the count says how many there are): enough to open a few
# examples, small enough that a 10,000-run group stays a short entry.
RUNS_LISTED = 20
# Unreadable runs listed in the report, for the same reason.
FAILED_LISTED = 100


@dataclass
class Group:
    """Runs that failed for one cause."""

    id: str
    cause: str
    fix: str | None
    count: int = 0
    first_seen: float = float("inf")
    last_seen: float = float("-inf")
    runs: list[str] = field(default_factory=list)
    frameworks: dict[str, set[str]] = field(default_factory=dict)
    confidence: Counter[str] = field(default_factory=Counter)
    new: bool = False

    def add(self, summary: RunSummary) -> None:
        self.count += 1
        self.first_seen = min(self.first_seen, summary.mtime)
        self.last_seen = max(self.last_seen, summary.mtime)
        if len(self.runs) < RUNS_LISTED:
            self.runs.append(summary.run)
        self.confidence[summary.confidence] += 1
        for name, version in summary.frameworks.items():
            self.frameworks.setdefault(name, set()).add(version)


@dataclass
class Triage:
    """A fleet's failures by cause, biggest group first, and the runs that could not be read."""

    groups: list[Group]
    runs: int
    failed_to_read: list[dict[str, str]]
    failed_count: int


def fold(summaries: Iterable[RunSummary], baseline: frozenset[str] | None = None) -> Triage:
    """Group the summaries by cause id; with a baseline, mark the groups it lacks as new."""
    groups: dict[str, Group] = {}
    failed: list[dict[str, str]] = []
    runs = failed_count = 0
    for summary in summaries:
        runs += 1
        if summary.error is not None:
            failed_count += 1
            if len(failed) < FAILED_LISTED:
                failed.append({"run": summary.run, "reason": summary.error})
            continue
        group = groups.get(summary.cause_id)
        if group is None:
            group = groups[summary.cause_id] = Group(summary.cause_id, summary.cause, summary.fix)
        group.add(summary)
    for group in groups.values():
        group.new = baseline is not None and group.id not in baseline
    ordered = sorted(groups.values(), key=lambda g: (-g.count, g.id))
    return Triage(ordered, runs, failed, failed_count)
