"""Analyzers turn Evidence into Findings: deterministic facts, with arithmetic.

Each module exposes `analyze(evidence) -> list[Finding]` and the `FINDING_IDS` it
can emit; `MODULES` is the one explicit registry. Analyzers that need lines the
log reader would otherwise drop list them in `KEEP` regexes, which the pipeline
hands to the reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from trainwreck.analyzers import (
    allocation,
    api_drift,
    best_metric,
    code,
    collectives,
    cuda_arch,
    cuda_oom,
    curves,
    dtype_origin,
    environment,
    fsdp_wrap,
    gpu_arch,
    gpu_faults,
    gpu_timeline,
    implausible,
    index_range,
    loss,
    loss_constants,
    loss_scale,
    memory_budget,
    mfu,
    nccl,
    process,
    ranks,
    refusal,
    shape_messages,
    shapes,
    strategies,
    throughput,
    version_change,
    vocabulary,
)
from trainwreck.errors import internal_error
from trainwreck.model import Evidence, Finding, Gap

Analyzer = Callable[[Evidence], list[Finding]]


class AnalyzerModule(Protocol):
    """A registered module: its analyzer and every finding id that analyzer can emit.

    The ids are declared so that `kb lint` can tell a page whose `finding:` names
    an id no analyzer emits (a typo that would silently never fire).
    """

    FINDING_IDS: tuple[str, ...]

    def analyze(self, evidence: Evidence) -> list[Finding]: ...


MODULES: tuple[AnalyzerModule, ...] = (
    process,
    cuda_oom,
    memory_budget,
    nccl,
    ranks,
    collectives,
    gpu_faults,
    gpu_arch,
    cuda_arch,
    loss,
    curves,
    environment,
    index_range,
    shapes,
    shape_messages,
    dtype_origin,
    allocation,
    implausible,
    loss_constants,
    loss_scale,
    strategies,
    vocabulary,
    version_change,
    api_drift,
    refusal,
    best_metric,
    fsdp_wrap,
    throughput,
    gpu_timeline,
    mfu,
    code,
)
ANALYZERS: tuple[Analyzer, ...] = tuple(module.analyze for module in MODULES)
# The one registry of finding ids: what KB `finding:`, `when`, `unless` and `ruled_out_by` may name.
FINDING_IDS: frozenset[str] = frozenset(
    finding_id for module in MODULES for finding_id in module.FINDING_IDS
)
KEEP: tuple[str, ...] = (
    *loss.KEEP,
    *nccl.KEEP,
    *gpu_faults.KEEP,
    *curves.KEEP,
    *environment.KEEP,
    *index_range.KEEP,
    *shapes.KEEP,
    *dtype_origin.KEEP,
    *allocation.KEEP,
    *strategies.KEEP,
    *vocabulary.KEEP,
    *mfu.KEEP,
    *gpu_arch.KEEP,
    *cuda_arch.KEEP,
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
