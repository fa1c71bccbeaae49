"""Analyzers turn Evidence into Findings: deterministic facts, with arithmetic.

Each module exposes `analyze(evidence) -> list[Finding]`; `ANALYZERS` is the one
explicit registry. Analyzers that need lines the log reader would otherwise
drop list them in `KEEP` regexes, which the pipeline hands to the reader.
"""

from __future__ import annotations

from collections.abc import Callable

from trainwreck.analyzers import (
    allocation,
    api_drift,
    code,
    cuda_oom,
    curves,
    dtype_origin,
    environment,
    fsdp_wrap,
    index_range,
    loss,
    loss_constants,
    memory_budget,
    nccl,
    process,
    shapes,
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
    index_range.analyze,
    shapes.analyze,
    dtype_origin.analyze,
    allocation.analyze,
    loss_constants.analyze,
    version_change.analyze,
    api_drift.analyze,
    fsdp_wrap.analyze,
    code.analyze,
)
KEEP: tuple[str, ...] = (
    *loss.KEEP,
    *nccl.KEEP,
    *curves.KEEP,
    *environment.KEEP,
    *index_range.KEEP,
    *shapes.KEEP,
    *dtype_origin.KEEP,
    *allocation.KEEP,
)


def run(evidence: Evidence) -> tuple[Finding, ...]:
    """Every analyzer's findings, in registry order."""
    findings: list[Finding] = []
    for analyzer in ANALYZERS:
        findings.extend(analyzer(evidence))
    return tuple(findings)
