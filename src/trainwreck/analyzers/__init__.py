"""Analyzers turn Evidence into Findings: deterministic facts, with arithmetic.

Each module exposes `analyze(evidence) -> list[Finding]`; `ANALYZERS` is the one
explicit registry. Analyzers that need lines the log reader would otherwise
drop list them in `KEEP` regexes, which the pipeline hands to the reader.
"""

from __future__ import annotations

from collections.abc import Callable

from trainwreck.analyzers import (
    code,
    cuda_oom,
    curves,
    environment,
    loss,
    memory_budget,
    nccl,
    process,
    version_change,
)
from trainwreck.model import Evidence, Finding

Analyzer = Callable[[Evidence], list[Finding]]

ANALYZERS: tuple[Analyzer, ...] = (
    process.analyze,
    cuda_oom.analyze,
    memory_budget.analyze,
    nccl.analyze,
    loss.analyze,
    curves.analyze,
    environment.analyze,
    version_change.analyze,
    code.analyze,
)
KEEP: tuple[str, ...] = (*loss.KEEP, *nccl.KEEP, *curves.KEEP, *environment.KEEP)


def run(evidence: Evidence) -> tuple[Finding, ...]:
    """Every analyzer's findings, in registry order."""
    findings: list[Finding] = []
    for analyzer in ANALYZERS:
        findings.extend(analyzer(evidence))
    return tuple(findings)
