"""Loss spikes: a robust score on log-loss against the trailing median.

score = (log x - trailing median of log x) / noise sigma, where sigma is the
MAD of step-to-step differences. A spike is a run of points scoring above
SCORE and at least MIN_RATIO times the baseline that comes back down: one that
never recovers is a divergence, reported by `trends`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from trainwreck.curves.refs import arith, around, fmt, point, where
from trainwreck.curves.robust import groups, noise_scale, trailing_median_at, trailing_min
from trainwreck.model import Arithmetic, Finding, MetricSeries, MetricTable

WINDOW = 31
SCORE = 6.0
MIN_RATIO = 1.5
RECOVERED_RATIO = 1.2
MIN_POINTS = 40
_JOIN_GAP = 3


@dataclass(frozen=True)
class Spike:
    """One spike: where it peaked, how high against the baseline, how long it lasted."""

    index: int  # index of the peak in the series
    start_step: int
    step: int
    value: float
    baseline: float
    ratio: float
    score: float
    recovery_steps: int


def _finite(series: MetricSeries) -> tuple[np.ndarray, np.ndarray]:
    keep = np.flatnonzero(np.isfinite(series.values) & (series.values > 0))
    return keep, np.log(series.values[keep])


def _flagged(logs: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """Which points score above SCORE and rise MIN_RATIO above their trailing median.

    The median is computed only where the trailing minimum (which it never falls
    below) leaves room for both: on a long curve that is a handful of points.
    """
    rise = logs - trailing_min(logs, WINDOW)
    maybe = np.flatnonzero((rise / sigma > SCORE) & (rise > math.log(MIN_RATIO)))
    above = logs[maybe] - trailing_median_at(logs, WINDOW, maybe)
    flags = np.zeros(logs.shape[0], dtype=bool)
    flags[maybe[(above / sigma[maybe] > SCORE) & (above > math.log(MIN_RATIO))]] = True
    return flags


def find_spikes(series: MetricSeries) -> list[Spike]:
    """Every recovered spike of a positive series (NaN/inf and non-positive values skipped)."""
    index, logs = _finite(series)
    if logs.size < MIN_POINTS:
        return []
    sigma = noise_scale(logs)
    spikes: list[Spike] = []
    for first, last in groups(_flagged(logs, sigma), _JOIN_GAP):
        base = trailing_median_at(logs, WINDOW, np.arange(first, last + 1))
        offset = int(np.argmax(logs[first : last + 1] - base))
        peak = first + offset
        calm = np.flatnonzero(logs[last + 1 :] - base[0] <= math.log(RECOVERED_RATIO))
        if calm.size == 0:
            continue  # never came back down: a divergence, not a spike
        recovered = int(series.steps[index[last + 1 + int(calm[0])]])
        spikes.append(
            Spike(
                index=int(index[peak]),
                start_step=int(series.steps[index[first]]),
                step=int(series.steps[index[peak]]),
                value=float(series.values[index[peak]]),
                baseline=float(np.exp(base[offset])),
                ratio=float(np.exp(logs[peak] - base[offset])),
                score=float((logs[peak] - base[offset]) / sigma[peak]),
                recovery_steps=recovered - int(series.steps[index[first]]),
            )
        )
    return spikes


def spike_finding(table: MetricTable, series: MetricSeries, spikes: list[Spike]) -> Finding:
    """The spikes of one series, the largest one worked through."""
    top = max(spikes, key=lambda s: s.ratio)
    summary = (
        f"{len(spikes)} {series.name} spike(s); the largest at step {top.step}: "
        f"{fmt(top.value)} vs a baseline of {fmt(top.baseline)} ({top.ratio:.1f}x, "
        f"score {top.score:.0f}), back to baseline {top.recovery_steps} steps after it began"
    )
    lines = (
        arith(
            "spike value",
            f"{series.name} at step {top.step}",
            top.value,
            where(table, series, top.index),
        ),
        arith("baseline", f"median of the {WINDOW} values before", top.baseline, "computed"),
        arith("magnitude", "value / baseline", round(top.ratio, 2), "computed", "x"),
        arith(
            "robust score",
            "(log value - log baseline) / noise sigma (MAD of diffs)",
            round(top.score, 1),
            "computed",
        ),
        arith(
            "recovery",
            f"steps until within {RECOVERED_RATIO}x of baseline",
            top.recovery_steps,
            "computed",
            "steps",
        ),
    )
    return Finding(
        id="curves.loss_spikes" if series.name == "loss" else f"curves.{series.name}_spikes",
        title=f"{series.name} spikes",
        category="divergence",
        summary=f"{summary} (values around it: {around(series, top.index)})",
        evidence=(point(table, series, top.index),),
        values={
            "count": len(spikes),
            "step": top.step,
            "ratio": round(top.ratio, 2),
            "recovery_steps": top.recovery_steps,
            "steps": ",".join(str(s.step) for s in spikes[:50]),
        },
        arithmetic=Arithmetic(title=f"Largest {series.name} spike", lines=lines, result=summary),
    )


def grad_norm_lead(table: MetricTable, loss_spikes: list[Spike]) -> Finding | None:
    """A grad-norm spike at or shortly before a loss spike: the update, not the batch alone."""
    grad = table.series.get("grad_norm")
    if grad is None or not loss_spikes:
        return None
    grad_spikes = find_spikes(grad)
    pairs = []
    for loss_spike in loss_spikes:
        lookback = max(loss_spike.recovery_steps, WINDOW)
        earlier = [
            g for g in grad_spikes if loss_spike.step - lookback <= g.start_step <= loss_spike.step
        ]
        if earlier:
            pairs.append((earlier[0], loss_spike))
    if not pairs:
        return None
    grad_spike, loss_spike = max(pairs, key=lambda pair: pair[1].ratio)
    lead = loss_spike.step - grad_spike.start_step
    summary = (
        f"grad_norm rose {grad_spike.ratio:.1f}x (to {fmt(grad_spike.value)}) at step "
        f"{grad_spike.start_step}, {lead} step(s) before the loss spike at step {loss_spike.step}; "
        f"{len(pairs)} of {len(loss_spikes)} loss spike(s) had a grad-norm spike first"
    )
    lines = (
        arith(
            "grad-norm spike",
            "first step above score",
            grad_spike.start_step,
            where(table, grad, grad_spike.index),
            "step",
        ),
        arith("loss spike", "peak step", loss_spike.step, "computed"),
        arith("lead", "loss step - grad-norm step", lead, "computed", "steps"),
    )
    return Finding(
        id="curves.grad_norm_before_spike",
        title="Gradient-norm explosion before a loss spike",
        category="divergence",
        summary=summary,
        evidence=(point(table, grad, grad_spike.index),),
        values={
            "grad_step": grad_spike.start_step,
            "loss_step": loss_spike.step,
            "lead_steps": lead,
        },
        arithmetic=Arithmetic(
            title="Gradient norm before the loss spike", lines=lines, result=summary
        ),
    )
