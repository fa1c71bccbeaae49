"""`compare(good, bad)`: what changed between a run that worked and one that broke, ranked.

Both runs are read by the evidence layer; their packages, machine facts, config keys,
command-line flags and metric histories are set side by side (`packages`, `settings`,
`curves`), and each change is ranked by what the knowledge base knows it can cause
(`rank`). `render` turns the result into Markdown or JSON. Nothing here prints.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from trainwreck.analyzers.curves import curve_tables
from trainwreck.compare import curves, packages, rank, settings
from trainwreck.compare.model import Change, Comparison, Departure
from trainwreck.errors import UsageError
from trainwreck.evidence.collect import collect
from trainwreck.kb import KnowledgeBase, load
from trainwreck.model import Evidence

__all__ = ["Change", "Comparison", "Departure", "compare"]


def _read(paths: Sequence[str], side: str) -> Evidence:
    """One run's evidence; a path that is not there, or a run with nothing readable, is
    bad input (the comparison would only list the other run's settings as removed)."""
    if not paths:
        raise UsageError(f"{side}: give a run directory or its files")
    for path in paths:
        if not os.path.exists(path):
            raise UsageError(f"{side}: {path} does not exist")
    evidence = collect(paths)
    if not evidence.files:
        raise UsageError(f"{side}: nothing readable in {', '.join(paths)}")
    return evidence


def compare(good: Sequence[str], bad: Sequence[str], kb: KnowledgeBase | None = None) -> Comparison:
    """The changes from GOOD to BAD, ranked (highest score first), and the curves."""
    good_evidence, bad_evidence = _read(good, "GOOD"), _read(bad, "BAD")
    knowledge = kb or load()
    good_env = packages.environment(good_evidence)
    bad_env = packages.environment(bad_evidence)
    found: list[Change] = [
        *packages.package_changes(good_env, bad_env),
        *packages.machine_changes(good_env, bad_env),
        *settings.setting_changes(
            settings.read_run(good_evidence), settings.read_run(bad_evidence)
        ),
    ]
    departed = curves.departures(curve_tables(good_evidence), curve_tables(bad_evidence))
    entered = rank.entered_bugs(good_env, bad_env, knowledge)
    ranked = rank.rank(found, rank.knowledge(knowledge), entered, departed)
    gaps = tuple(
        f"{side}: {gap.source}: {gap.reason}"
        for side, evidence in (("GOOD", good_evidence), ("BAD", bad_evidence))
        for gap in evidence.gaps
    )
    return Comparison(changes=ranked, curves=tuple(departed), gaps=gaps)
