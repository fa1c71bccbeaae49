"""Learning-rate schedule checks: stuck at zero, no warmup where asked, decay done too early.

Each compares the logged learning_rate with the run's own length or config; none
judges whether a value is good for the model: `lr_prior` does, against cited recipes.
"""

from __future__ import annotations

import numpy as np

from trainwreck.curves.facts import RunFacts
from trainwreck.curves.refs import arith, fmt, point, where
from trainwreck.model import Arithmetic, Finding, MetricSeries, MetricTable

FLOOR = 0.01  # of the peak: the schedule has ended
MIN_IDLE_FRACTION = 0.1
WARM_FRACTION = 0.9


def _lr(table: MetricTable) -> tuple[MetricSeries, np.ndarray] | None:
    series = table.series.get("learning_rate")
    if series is None or len(series) < 3:
        return None
    keep = np.flatnonzero(np.isfinite(series.values))
    return (series, keep) if keep.size >= 3 else None


def _run_end(table: MetricTable) -> int:
    return max(int(s.steps[-1]) for s in table.series.values())


def lr_zero(table: MetricTable) -> Finding | None:
    found = _lr(table)
    if found is None or np.any(found[0].values[found[1]] != 0):
        return None
    series, keep = found
    first, last = int(series.steps[keep[0]]), int(series.steps[keep[-1]])
    summary = (
        f"learning_rate was 0 at all {keep.size} logged steps (steps {first}-{last}): "
        "the optimizer moved no parameter"
    )
    return Finding(
        id="curves.lr_zero",
        title="Learning rate stuck at zero",
        category="config_error",
        summary=summary,
        evidence=(point(table, series, int(keep[0])), point(table, series, int(keep[-1]))),
        values={"points": int(keep.size)},
    )


def lr_decay_early(table: MetricTable, facts: RunFacts) -> Finding | None:
    """The schedule reached ~0 and the run went on for a large part of its length."""
    found = _lr(table)
    if found is None:
        return None
    series, keep = found
    values, steps = series.values[keep], series.steps[keep]
    peak_at = int(np.argmax(values))
    peak = float(values[peak_at])
    above = np.flatnonzero(values > FLOOR * peak)
    if peak <= 0 or above[-1] >= values.size - 3 or above[-1] < peak_at:
        return None
    ended = int(above[-1]) + 1
    end_step, run_end = int(steps[ended]), _run_end(table)
    idle = (run_end - end_step) / max(run_end, 1)
    if idle < MIN_IDLE_FRACTION:
        return None
    summary = (
        f"learning_rate fell to {fmt(float(values[ended]))} (<= {FLOOR:.0%} of its peak "
        f"{fmt(peak)}) at step {end_step} and stayed there until the run ended at step "
        f"{run_end}: the last {idle:.0%} of the run trained at ~0 learning rate"
    )
    lines = [
        arith(
            "peak learning rate",
            "max over logged steps",
            peak,
            where(table, series, int(keep[peak_at])),
        ),
        arith(
            "schedule end",
            f"first step with lr <= {FLOOR} x peak for good",
            end_step,
            where(table, series, int(keep[ended])),
            "step",
        ),
        arith("run end", "last logged step", run_end, table.source),
        arith("idle fraction", "(run end - schedule end) / run end", round(idle, 3), "computed"),
    ]
    for key in ("max_steps", "num_train_epochs"):
        if (fact := facts.get(key)) is not None:
            lines.append(arith(key, "as configured", fact.value, fact.source))
    return Finding(
        id="curves.lr_decay_early",
        title="Learning-rate decay finished long before the run ended",
        category="config_error",
        summary=summary,
        evidence=(point(table, series, int(keep[ended])),),
        values={
            "schedule_end_step": end_step,
            "run_end_step": run_end,
            "idle_fraction": round(idle, 3),
        },
        arithmetic=Arithmetic(
            title="Schedule length vs run length", lines=tuple(lines), result=summary
        ),
    )


def lr_no_warmup(table: MetricTable, facts: RunFacts) -> Finding | None:
    """The config asked for warmup but the first logged learning rate is already at its peak."""
    found = _lr(table)
    warmup = facts.get("warmup_steps")
    ratio = facts.get("warmup_ratio")
    if found is None or (warmup is None and ratio is None):
        return None
    series, keep = found
    warm_steps = warmup.value if warmup is not None and warmup.value > 0 else 0.0
    if not warm_steps and ratio is not None:
        warm_steps = ratio.value * _run_end(table)
    first, peak = float(series.values[keep[0]]), float(np.max(series.values[keep]))
    first_step = int(series.steps[keep[0]])
    if warm_steps < 2 or first_step >= warm_steps / 2 or peak <= 0 or first < WARM_FRACTION * peak:
        return None
    source = warmup if warmup is not None and warmup.value > 0 else ratio
    summary = (
        f"the config asks for about {warm_steps:.0f} warmup steps, yet the learning rate at step "
        f"{first_step} is already {fmt(first)} ({first / peak:.0%} of its peak): "
        "warmup is not applied"
    )
    return Finding(
        id="curves.lr_no_warmup",
        title="No learning-rate warmup although the config asks for it",
        category="config_error",
        summary=summary,
        evidence=(point(table, series, int(keep[0])),),
        values={"warmup_steps": round(warm_steps), "first_step": first_step, "first_lr": first},
        arithmetic=Arithmetic(
            title="Warmup",
            lines=(
                arith(
                    "warmup steps",
                    "as configured",
                    round(warm_steps),
                    source.source if source else "config",
                ),
                arith(
                    "first logged lr",
                    f"at step {first_step}",
                    first,
                    where(table, series, int(keep[0])),
                ),
                arith("peak lr", "max over logged steps", peak, "computed"),
            ),
            result=summary,
        ),
    )
