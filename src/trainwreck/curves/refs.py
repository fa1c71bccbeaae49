"""Small builders shared by the detectors: evidence pointers and arithmetic lines."""

from __future__ import annotations

import math

from trainwreck.model import ArithmeticLine, MetricSeries, MetricTable, SourceRef

WATCHED = ("loss", "grad_norm", "eval_loss", "learning_rate", "loss_scale")


def fmt(value: float) -> str:
    """A value as a person reads it: 4 significant digits, nan/inf spelled out."""
    if not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return f"{value:.4g}"


def step_of(series: MetricSeries, index: int) -> int:
    return int(series.steps[index])


def where(table: MetricTable, series: MetricSeries, index: int) -> str:
    """`file:line` when the line is known, else `file (step N)`."""
    line = int(series.lines[index])
    return (
        f"{table.source}:{line}" if line > 0 else f"{table.source} (step {step_of(series, index)})"
    )


def point(table: MetricTable, series: MetricSeries, index: int) -> SourceRef:
    """The evidence for one logged value; the analyzer swaps in the log text when known."""
    line = int(series.lines[index])
    return SourceRef(
        source=table.source,
        line=line if line > 0 else None,
        text=f"step {step_of(series, index)}: {series.name}={fmt(float(series.values[index]))}",
    )


def around(series: MetricSeries, index: int, radius: int = 2) -> str:
    """The values logged around one point, e.g. `1.2@530, 1.3@531, nan@532`."""
    lo, hi = max(0, index - radius), min(len(series), index + radius + 1)
    return ", ".join(f"{fmt(float(series.values[i]))}@{step_of(series, i)}" for i in range(lo, hi))


def arith(
    label: str, formula: str, value: float | int | str, source: str, unit: str | None = None
) -> ArithmeticLine:
    if isinstance(value, float):
        value = float(f"{value:.6g}") if math.isfinite(value) else fmt(value)
    return ArithmeticLine(label=label, formula=formula, value=value, unit=unit, source=source)
