"""Run every curve detector over one MetricTable; the one entry point analyzers call."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from trainwreck.curves import nonfinite, schedule, spikes, trends
from trainwreck.curves.clipping import clipping
from trainwreck.curves.facts import RunFacts
from trainwreck.curves.jumps import loss_jump
from trainwreck.curves.lr_prior import lr_against_priors
from trainwreck.curves.oscillation import oscillation
from trainwreck.curves.periodic import periodic_spikes
from trainwreck.model import Finding, MetricTable

# Every id a curve detector can emit: KB `finding:` signatures name them (`kb lint` checks).
FINDING_IDS: tuple[str, ...] = (
    *nonfinite.FINDING_IDS,
    "loss.diverged",  # trends.divergence, under the loss analyzer's id
    "curves.loss_explosion",
    "curves.loss_jump",
    "curves.plateau",
    "curves.overfitting",
    "curves.lr_zero",
    "curves.oscillation",
    "curves.loss_spikes",  # spikes.spike_finding, which detect gives the loss only
    "curves.periodic_spikes",
    "curves.grad_norm_before_spike",
    "curves.lr_decay_early",
    "curves.lr_no_warmup",
    "curves.clipping",
    "curves.lr_above_prior",
    "curves.lr_below_prior",
)
_SIMPLE: tuple[Callable[[MetricTable], Finding | None], ...] = (
    nonfinite.loss_scale_collapse,
    trends.divergence,
    trends.explosion,
    loss_jump,
    trends.plateau,
    trends.overfitting,
    schedule.lr_zero,
)


def _spike_findings(table: MetricTable, facts: RunFacts, since: int | None) -> list[Finding]:
    """Loss spikes before `since` (where an oscillation starts, its highs are not spikes)."""
    loss = table.series.get("loss")
    if loss is None:
        return []
    found = [s for s in spikes.find_spikes(loss) if since is None or s.start_step < since]
    if not found:
        return []
    out = [spikes.spike_finding(table, loss, found)]
    for extra in (
        periodic_spikes(table, loss, found, facts),
        spikes.grad_norm_lead(table, found),
    ):
        if extra is not None:
            out.append(extra)
    return out


def detect(table: MetricTable, facts: RunFacts | None = None) -> list[Finding]:
    """Every event the curves of one source show, in a fixed order.

    Curves hold inf, NaN and values near the float64 limit on purpose (they are the
    events): NumPy's overflow and invalid-value warnings would only be noise on stderr.
    """
    with np.errstate(all="ignore"):
        return _detect(table, facts or RunFacts())


def _detect(table: MetricTable, facts: RunFacts) -> list[Finding]:
    findings = nonfinite.detect_non_finite(table)
    findings += [f for check in _SIMPLE if (f := check(table)) is not None]
    swinging = oscillation(table)
    if swinging is not None:
        findings.append(swinging)
    since = swinging.values["step"] if swinging is not None else None
    findings += _spike_findings(table, facts, since if isinstance(since, int) else None)
    for check in (schedule.lr_decay_early, schedule.lr_no_warmup, clipping, lr_against_priors):
        if (finding := check(table, facts)) is not None:
            findings.append(finding)
    unit = table.info.get("step_unit")
    if isinstance(unit, str):  # say what "step" means when the source printed none
        findings = [
            f.model_copy(update={"summary": f"{f.summary} [step = {unit}]"}) for f in findings
        ]
    return findings
