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
    implausible,
    index_range,
    loss,
    loss_constants,
    loss_scale,
    memory_budget,
    nccl,
    process,
    shapes,
    strategies,
    version_change,
    vocabulary,
)
from trainwreck.errors import internal_error
from trainwreck.model import Evidence, Finding, Gap

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
    implausible.analyze,
    loss_constants.analyze,
    loss_scale.analyze,
    strategies.analyze,
    vocabulary.analyze,
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
    *strategies.KEEP,
    *vocabulary.KEEP,
)


def run(evidence: Evidence, failed: list[Gap] | None = None) -> tuple[Finding, ...]:
    """Every analyzer's findings, in registry order.

    An analyzer that raises (a bug of ours) loses its own findings, never the
    report: it is recorded in `failed`, which the report lists as warnings.
    """
    findings: list[Finding] = []
    for analyzer in ANALYZERS:
        try:
            findings.extend(analyzer(evidence))
        except Exception as error:  # the last resort of one analyzer
            name = analyzer.__module__.rsplit(".", 1)[-1]
            reason = f"its findings are left out: {internal_error(error)}"
            (failed if failed is not None else []).append(
                Gap(source=f"analyzer {name}", reason=reason)
            )
    return tuple(findings)
