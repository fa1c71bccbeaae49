"""Draw a run's curves as one inline SVG, with its events marked and a caption for the marks.

Matplotlib is the optional `plots` extra and is imported only here, when a plot
is asked for; without it `draw` returns None and callers print PLOTS_MISSING.
The SVG (a report Figure) is deterministic (fixed ids, no date) and keeps text as text, so it is
small and the same run always draws the same file.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from trainwreck.curves.figures import Figure
from trainwreck.model import Finding, MetricSeries, MetricTable

if TYPE_CHECKING:
    from matplotlib.axes import Axes

PLOTS_MISSING = "Plots need Matplotlib: pip install 'trainwreck[plots]'"
MAX_POINTS = 4000  # per series; longer ones are drawn as per-bucket min and max
MAX_EPOCH_LINES = 60
# Matplotlib computes an axis's span as max - min: past 1e300 either way it overflows
# to inf (`arange: cannot compute length`); such values are drawn as gaps, like inf.
MAX_PLOTTED = 1e300
_FIXED_SIZE = re.compile(r'width="[\d.]+pt" height="[\d.]+pt"')
_PANELS = (("loss", "eval_loss"), ("grad_norm",), ("learning_rate",), ("loss_scale",))
RED, GREEN, GREY, ORANGE = "#c5221f", "#188038", "#9aa0a6", "#e37400"
# Findings that say the loss went up for good, and the values that hold the step it began
# (the curve detector's rising step; the log analyzer's lowest point), best first.
_DIVERGENCE_STEPS = (
    ("loss.diverged", ("rising_step", "min_step")),
    ("curves.loss_explosion", ("step",)),
)


@dataclass(frozen=True)
class Marks:
    """Steps worth marking on the plot, each read off a finding or a logged series."""

    nan_step: int | None = None
    nan_metric: str | None = None
    spike_steps: tuple[int, ...] = ()
    epoch_steps: tuple[int, ...] = ()
    warmup_end: int | None = None
    divergence_step: int | None = None

    def caption(self) -> str:
        parts = []
        if self.nan_step is not None:
            parts.append(
                f"solid red line: first non-finite value ({self.nan_metric}) at step "
                f"{self.nan_step}"
            )
        if self.spike_steps:
            parts.append(f"red triangles: {len(self.spike_steps)} loss spike(s)")
        if self.epoch_steps:
            parts.append(f"grey dotted lines: {len(self.epoch_steps)} epoch boundaries")
        if self.warmup_end is not None:
            parts.append(f"green dashed line: warmup end at step {self.warmup_end}")
        if self.divergence_step is not None:
            parts.append(
                f"orange dash-dot line: loss rising from step {self.divergence_step} (diverged)"
            )
        return "; ".join(parts) if parts else "no event marked"


def _nan_onset(findings: Sequence[Finding]) -> tuple[int | None, str | None]:
    onsets = [
        (step, str(f.values.get("metric", f.id.split(".")[0])))
        for f in findings
        if f.id.endswith(".non_finite") and isinstance(step := f.values.get("step"), int)
    ]
    return min(onsets) if onsets else (None, None)


def _divergence_step(findings: Sequence[Finding]) -> int | None:
    """Where the loss began its sustained rise, as the divergence finding states it."""
    steps = []
    for finding in findings:
        for finding_id, keys in _DIVERGENCE_STEPS:
            found = [finding.values.get(key) for key in keys if finding.id == finding_id]
            steps += [step for step in found if isinstance(step, int)][:1]
    return min(steps) if steps else None


def _spike_steps(findings: Sequence[Finding]) -> tuple[int, ...]:
    spikes = next((f for f in findings if f.id == "curves.loss_spikes"), None)
    text = str(spikes.values.get("steps", "")) if spikes else ""
    return tuple(int(s) for s in text.split(",") if s.strip().isdigit())


def _epoch_steps(table: MetricTable) -> tuple[int, ...]:
    """Steps where the whole-epoch count goes up (the first logged step of each new epoch)."""
    epoch = table.series.get("epoch")
    if epoch is None or len(epoch) < 2:
        return ()
    keep = np.isfinite(epoch.values)
    whole = np.floor(epoch.values[keep] + 1e-9)
    changed = np.flatnonzero(np.diff(whole) > 0) + 1
    steps = tuple(int(s) for s in epoch.steps[keep][changed])
    return steps if len(steps) <= MAX_EPOCH_LINES else ()


def _warmup_end(table: MetricTable) -> int | None:
    """The first step the learning rate reaches 99% of its peak, when it climbed to it."""
    lr = table.series.get("learning_rate")
    if lr is None or len(lr) < 3:
        return None
    keep = np.flatnonzero(np.isfinite(lr.values))
    values = lr.values[keep]
    if values.size < 3 or float(np.max(values)) <= 0:
        return None
    reached = int(np.argmax(values >= 0.99 * float(np.max(values))))
    if reached == 0 or values[0] >= 0.5 * values[reached]:
        return None
    return int(lr.steps[keep[reached]])


def marks(table: MetricTable, findings: Sequence[Finding]) -> Marks:
    nan_step, nan_metric = _nan_onset(findings)
    return Marks(
        nan_step=nan_step,
        nan_metric=nan_metric,
        spike_steps=_spike_steps(findings),
        epoch_steps=_epoch_steps(table),
        warmup_end=_warmup_end(table),
        divergence_step=_divergence_step(findings),
    )


def _thinned(series: MetricSeries) -> tuple[np.ndarray, np.ndarray]:
    """Steps and values to draw: all of them, or each bucket's min and max so spikes stay."""
    drawable = np.isfinite(series.values) & (np.abs(series.values) <= MAX_PLOTTED)
    values = np.where(drawable, series.values, np.nan)
    if len(series) <= MAX_POINTS:
        return series.steps, values
    bucket = -(-len(series) // (MAX_POINTS // 2))
    padded = np.full(-(-len(series) // bucket) * bucket, np.nan)
    padded[: len(series)] = values
    blocks = padded.reshape(-1, bucket)
    low, high = np.fmin.reduce(blocks, axis=1), np.fmax.reduce(blocks, axis=1)  # NaN-skipping
    steps = series.steps[::bucket]
    return np.repeat(steps, 2), np.column_stack([low, high]).ravel()


def _label(name: str) -> str:
    """A metric name as plain text: a `$` would otherwise start Matplotlib's math mode."""
    return name.replace("$", r"\$")


def _positive(values: np.ndarray) -> bool:
    finite = values[np.isfinite(values)]
    return bool(finite.size) and float(np.min(finite)) > 0 and float(np.max(finite)) > 0


def _panel(axes: Axes, table: MetricTable, names: tuple[str, ...], found: Marks) -> None:
    for name in names:
        series = table.series.get(name)
        if series is None:
            continue
        steps, values = _thinned(series)
        style = "o-" if name.startswith("eval") else "-"
        axes.plot(steps, values, style, linewidth=0.9, markersize=3, label=_label(name))
        if name == "loss" and found.spike_steps:
            at = np.searchsorted(series.steps, np.asarray(found.spike_steps))
            at = at[at < len(series)]
            axes.plot(
                series.steps[at],
                series.values[at],
                "v",
                color=RED,
                markersize=7,
                label="loss spike",
            )
    drawn = [table.series[n].values for n in names if n in table.series]
    if all(_positive(values) for values in drawn):
        axes.set_yscale("log")
    axes.set_ylabel(_label(" / ".join(n for n in names if n in table.series)))
    for step in found.epoch_steps:
        axes.axvline(step, color=GREY, linestyle=":", linewidth=0.8)
    if found.warmup_end is not None:
        axes.axvline(found.warmup_end, color=GREEN, linestyle="--", linewidth=1.2)
    if found.nan_step is not None:
        axes.axvline(found.nan_step, color=RED, linestyle="-", linewidth=1.4)
    if found.divergence_step is not None:
        axes.axvline(found.divergence_step, color=ORANGE, linestyle="-.", linewidth=1.2)
    if len(axes.get_lines()) > 1 and any(n.startswith("eval") for n in names):
        axes.legend(loc="upper right", fontsize=8)
    axes.grid(True, alpha=0.3)


def draw(table: MetricTable, findings: Sequence[Finding]) -> Figure | None:
    """One SVG with a panel per plotted metric sharing the step axis; None without Matplotlib."""
    try:
        from matplotlib import rc_context
        from matplotlib.figure import Figure as MplFigure
    except ImportError:
        return None
    panels = [names for names in _PANELS if any(n in table.series for n in names)]
    if not panels:
        return None
    found = marks(table, findings)
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "trainwreck"}):
        figure = MplFigure(figsize=(8, 1.2 + 1.9 * len(panels)), layout="constrained")
        axes_list = figure.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
        for axes, names in zip(axes_list, panels, strict=True):
            _panel(axes, table, names, found)
        axes_list[-1].set_xlabel(_label(_step_label(table)))
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    svg = buffer.getvalue()
    # Scale with the page (the viewBox keeps the aspect ratio) instead of a fixed size in pt.
    svg = _FIXED_SIZE.sub('width="100%"', svg[svg.index("<svg") :], count=1)
    return Figure(title=table.source, svg=svg, caption=found.caption())


def _step_label(table: MetricTable) -> str:
    unit = table.info.get("step_unit")
    return f"step ({unit})" if isinstance(unit, str) else "step"
