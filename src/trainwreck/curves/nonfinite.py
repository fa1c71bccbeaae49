"""First non-finite value per metric, which metric went first, and fp16 loss-scale collapse.

The order matters: a gradient norm that turns NaN/inf before the loss points at
the backward pass or the optimizer step; a loss that turns first points at the
forward pass or the data. At one logging step apart, the order is not told apart.
"""

from __future__ import annotations

import numpy as np

from trainwreck.curves.refs import WATCHED, arith, around, fmt, point, step_of, where
from trainwreck.model import Arithmetic, Finding, MetricSeries, MetricTable

FINDING_IDS: tuple[str, ...] = (
    *(f"{name}.non_finite" for name in WATCHED),
    "curves.non_finite_order",
    "curves.loss_scale_collapse",
)
# Evaluation and schedule values follow from the weights; the training step's own
# loss and gradient norm are the two whose order says where a NaN was born.
_ORDERED = ("loss", "grad_norm")
_MIN_SCALE = 1.0
_COLLAPSE_HALVINGS = 10


def first_non_finite(series: MetricSeries) -> int | None:
    bad = np.flatnonzero(~np.isfinite(series.values))
    return int(bad[0]) if bad.size else None


def _one(table: MetricTable, series: MetricSeries, index: int) -> Finding:
    finite = np.flatnonzero(np.isfinite(series.values[:index]))
    last = (
        f"; last finite value {fmt(float(series.values[finite[-1]]))} at step "
        if finite.size
        else ""
    )
    last += str(step_of(series, int(finite[-1]))) if finite.size else ""
    value = fmt(float(series.values[index]))
    return Finding(
        id=f"{series.name}.non_finite",
        title=f"{series.name} became non-finite",
        category="nan_inf",
        summary=f"{series.name} became {value} at step {step_of(series, index)}{last} "
        f"(values around it: {around(series, index)})",
        evidence=(point(table, series, index),),
        values={
            "metric": series.name,
            "step": step_of(series, index),
            "last_finite": float(series.values[finite[-1]]) if finite.size else None,
        },
    )


def _order(table: MetricTable, onsets: dict[str, int]) -> Finding | None:
    """Which watched metric turned non-finite first, when more than one was logged."""
    onsets = {name: i for name, i in onsets.items() if name in _ORDERED}
    if not onsets:
        return None
    steps = {name: step_of(table.series[name], i) for name, i in onsets.items()}
    first_step = min(steps.values())
    firsts = sorted(name for name, step in steps.items() if step == first_step)
    if "grad_norm" not in table.series or "loss" not in table.series:
        return None
    if len(firsts) > 1:
        return None  # one logging step: the per-metric findings already say so, no order
    if firsts == ["grad_norm"]:
        meaning = "the gradient norm went first: the backward pass or the optimizer step"
    else:
        meaning = "the loss went first while gradients were finite: the forward pass or the data"
    lines = tuple(
        arith(
            f"first non-finite {name}",
            "first step where value is nan/inf",
            step,
            where(table, table.series[name], onsets[name]),
            "step",
        )
        for name, step in sorted(steps.items(), key=lambda item: item[1])
    )
    later = ", ".join(f"{n} at step {s}" for n, s in sorted(steps.items()) if n not in firsts)
    summary = f"first non-finite: {firsts[0]} at step {first_step}"
    summary += f" (then {later})" if later else f" ({other_finite(table, firsts[0], onsets)})"
    summary += f"; {meaning}"
    return Finding(
        id="curves.non_finite_order",
        title="Which metric became non-finite first",
        category="nan_inf",
        summary=summary,
        evidence=tuple(point(table, table.series[n], onsets[n]) for n in sorted(onsets)),
        values={
            "first": ",".join(firsts),
            "step": first_step,
            **{f"{n}_step": s for n, s in steps.items()},
        },
        arithmetic=Arithmetic(title="Order of non-finite values", lines=lines, result=summary),
    )


def other_finite(table: MetricTable, first: str, onsets: dict[str, int]) -> str:
    """What the other metric read at the step the first one went non-finite."""
    other = "loss" if first == "grad_norm" else "grad_norm"
    series, step = table.series[other], step_of(table.series[first], onsets[first])
    at = int(np.searchsorted(series.steps, step))
    if at < len(series) and int(series.steps[at]) == step:
        return f"{other} was {fmt(float(series.values[at]))} at that step and stayed finite"
    return f"{other} stayed finite"


def loss_scale_collapse(table: MetricTable) -> Finding | None:
    """fp16 dynamic loss scaling halved until it hit the floor: every step overflows."""
    series = table.series.get("loss_scale")
    if series is None or len(series) < 2:
        return None
    values = series.values
    peak = float(np.nanmax(values)) if np.isfinite(values).any() else 0.0
    low_index = int(np.nanargmin(values)) if np.isfinite(values).any() else 0
    low = float(values[low_index])
    if peak <= 0 or not (low <= _MIN_SCALE or peak / max(low, 1e-30) >= 2**_COLLAPSE_HALVINGS):
        return None
    halvings = float(np.log2(peak / max(low, 1e-30)))
    overflows = table.info.get("overflow_events")
    summary = (
        f"fp16 loss scale fell from {fmt(peak)} to {fmt(low)} by step "
        f"{step_of(series, low_index)} ({halvings:.0f} halvings"
        + (f", {overflows} overflow messages" if overflows else "")
        + "): gradients overflow fp16 at every scale tried"
    )
    lines = (
        arith(
            "peak loss scale",
            "max over logged steps",
            peak,
            where(table, series, int(np.nanargmax(values))),
        ),
        arith("lowest loss scale", "min over logged steps", low, where(table, series, low_index)),
        arith("halvings", "log2(peak / lowest)", round(halvings, 1), "computed"),
    )
    return Finding(
        id="curves.loss_scale_collapse",
        title="fp16 loss scale collapsed",
        category="nan_inf",
        summary=summary,
        evidence=(point(table, series, low_index),),
        values={"step": step_of(series, low_index), "peak": peak, "lowest": low},
        arithmetic=Arithmetic(title="Loss-scale collapse", lines=lines, result=summary),
    )


def detect_non_finite(table: MetricTable) -> list[Finding]:
    onsets = {
        name: index
        for name in WATCHED
        if name in table.series and (index := first_non_finite(table.series[name])) is not None
    }
    findings = [_one(table, table.series[name], index) for name, index in onsets.items()]
    if onsets and (order := _order(table, onsets)) is not None:
        findings.append(order)
    return findings
