"""Ablation: the real cases each analyzer and code detector decides.

Issue 15 asks that every analyzer and code detector name a real case it turns
from a wrong top answer into the right one. A case is diagnosed with the full
registries and again with one entry left out; a case whose top answer moves
is a case that entry decides. Only the cases where the entry produced a
finding are rediagnosed: an entry that found nothing cannot move a top answer.

The cases are known.py's: real failures and the page their confirmed cause maps to.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from trainwreck import analyzers
from trainwreck.analyzers import Analyzer
from trainwreck.analyzers import code as code_analyzers
from trainwreck.curation.known import Known
from trainwreck.model import Diagnosis, Evidence, Finding


@dataclass(frozen=True)
class Moved:
    """A case whose top answer differs with the entry and without it."""

    case: str
    expected: str
    with_it: str | None
    without_it: str | None

    @property
    def wrong_to_right(self) -> bool:
        return self.with_it == self.expected != self.without_it

    @property
    def right_to_wrong(self) -> bool:
        return self.without_it == self.expected != self.with_it


def _name(analyzer: Analyzer) -> str:
    return analyzer.__module__.rsplit(".", 1)[-1]


def parts() -> list[str]:
    """Every analyzer (by module name) and every code detector (by finding id)."""
    return [_name(a) for a in analyzers.ANALYZERS] + [d.id for d in code_analyzers.DETECTORS]


@contextmanager
def without(part: str) -> Iterator[None]:
    """The registries with one analyzer or code detector left out, for the block."""
    kept_analyzers, kept_detectors = analyzers.ANALYZERS, code_analyzers.DETECTORS
    if part not in parts():
        raise KeyError(f"no analyzer or code detector named {part!r}")
    analyzers.ANALYZERS = tuple(a for a in kept_analyzers if _name(a) != part)
    code_analyzers.DETECTORS = tuple(d for d in kept_detectors if d.id != part)
    try:
        yield
    finally:
        analyzers.ANALYZERS, code_analyzers.DETECTORS = kept_analyzers, kept_detectors


def _watched(analyzer: Analyzer, fired: set[str]) -> Analyzer:
    detectors = {d.id for d in code_analyzers.DETECTORS}

    @functools.wraps(analyzer)
    def watched(evidence: Evidence) -> list[Finding]:
        found = analyzer(evidence)
        if found:
            fired.add(_name(analyzer))
        fired.update(f.id for f in found if f.id in detectors)
        return found

    return watched


@contextmanager
def watching() -> Iterator[set[str]]:
    """The parts that produce a finding in the block's diagnoses, filled in as they run."""
    kept = analyzers.ANALYZERS
    fired: set[str] = set()
    analyzers.ANALYZERS = tuple(_watched(a, fired) for a in kept)
    try:
        yield fired
    finally:
        analyzers.ANALYZERS = kept


def top(diagnosis: Diagnosis) -> str | None:
    return diagnosis.hypotheses[0].id if diagnosis.hypotheses else None


def ablate(case: Known, part: str) -> Moved:
    """The case's top answer with every part and with `part` left out."""
    with_it = top(case.diagnose())
    with without(part):
        without_it = top(case.diagnose())
    return Moved(case.name, case.expected, with_it, without_it)


@dataclass(frozen=True)
class Ablation:
    """The full run's top answers, the parts that fired on each case, and what moved."""

    expected: dict[str, str]
    tops: dict[str, str | None]
    fired: dict[str, set[str]]
    moved: dict[str, list[Moved]]

    def fired_on(self, part: str) -> int:
        return sum(part in names for names in self.fired.values())

    @property
    def right(self) -> int:
        return sum(self.tops[case] == page for case, page in self.expected.items())


def measure(cases: list[Known], progress: Callable[[str], None] | None = None) -> Ablation:
    """Each part's cases whose top answer moves when it is left out."""
    tops: dict[str, str | None] = {}
    fired: dict[str, set[str]] = {}
    for case in cases:
        with watching() as names:
            tops[case.name] = top(case.diagnose())
        fired[case.name] = names
    moved: dict[str, list[Moved]] = {}
    for part in parts():
        if progress:
            progress(part)
        moved[part] = []
        for case in (c for c in cases if part in fired[c.name]):
            with without(part):
                without_it = top(case.diagnose())
            if without_it != tops[case.name]:
                moved[part].append(Moved(case.name, case.expected, tops[case.name], without_it))
    return Ablation({c.name: c.expected for c in cases}, tops, fired, moved)
