"""Spikes that recur at a fixed step interval, compared with the steps in one epoch.

The comparison is stated as predicted vs observed. A period that matches an
epoch says the spikes come back at the same place in the data order; one that
does not is reported as such, at lower confidence, with no mechanism invented.
"""

from __future__ import annotations

import numpy as np

from trainwreck.curves.facts import RunFacts, steps_per_epoch
from trainwreck.curves.refs import arith, point
from trainwreck.curves.spikes import Spike
from trainwreck.model import Arithmetic, Finding, MetricSeries, MetricTable

# Four random spike positions line up within tolerance by chance too often (seen in
# the generated benchmark); five, with intervals that are exact multiples, rarely do.
MIN_OCCURRENCES = 5
TOLERANCE = 0.05  # of the period


def period(spikes: list[Spike], log_interval: int) -> int | None:
    """The common interval of the spikes' starts, if they recur regularly (missed ones allowed)."""
    if len(spikes) < MIN_OCCURRENCES:
        return None
    starts = np.array(sorted(s.start_step for s in spikes), dtype=np.float64)
    intervals = np.diff(starts)
    base = float(np.median(intervals))
    if base <= 0:
        return None
    multiples = np.maximum(np.round(intervals / base), 1)
    slack = max(TOLERANCE * base, 2 * log_interval)
    if np.any(np.abs(intervals - multiples * base) > slack) or np.mean(multiples == 1) < 0.75:
        return None
    return round(float(np.sum(intervals) / np.sum(multiples)))


def periodic_spikes(
    table: MetricTable, series: MetricSeries, spikes: list[Spike], facts: RunFacts
) -> Finding | None:
    log_interval = int(np.median(np.diff(series.steps))) if len(series) > 1 else 1
    observed = period(spikes, log_interval)
    if observed is None:
        return None
    phase = int(np.median([s.start_step % observed for s in spikes]))
    epoch = steps_per_epoch(table, facts)
    lines = [
        arith(
            "observed period",
            f"mean interval between {len(spikes)} spike starts",
            observed,
            "computed",
            "steps",
        )
    ]
    if epoch is None:
        verdict = "steps per epoch are not in the evidence, so the period cannot be tied to epochs"
        confidence = "medium"
    else:
        lines += list(epoch.lines)
        gap = abs(observed - epoch.value)
        if gap <= max(TOLERANCE / 2 * epoch.value, log_interval):
            verdict = (
                f"this matches one epoch ({epoch.how} {epoch.value} steps): the spikes return at "
                f"the same point of every epoch (offset {phase} steps), i.e. with the data order"
            )
            confidence = "high"
        else:
            verdict = (
                f"one epoch is {epoch.value} steps ({epoch.how}), which does not match the "
                f"observed "
                f"{observed}-step period; the evidence does not tie these spikes to epochs"
            )
            confidence = "medium"
    summary = f"{series.name} spikes recur every {observed} steps ({len(spikes)} spikes); {verdict}"
    return Finding(
        id="curves.periodic_spikes",
        title="Spikes recur at a fixed interval",
        category="divergence",
        summary=summary,
        evidence=tuple(point(table, series, s.index) for s in spikes[:3]),
        values={
            "period_steps": observed,
            "steps_per_epoch": epoch.value if epoch else None,
            "offset_steps": phase,
            "confidence": confidence,
        },
        arithmetic=Arithmetic(
            title="Spike period vs steps per epoch", lines=tuple(lines), result=summary
        ),
    )
