"""Loss and gradient-norm values printed in logs: first non-finite value, divergence.

Reads the lines trainers print each logging step (the HF Trainer's dicts,
`loss=`/`loss:` pairs, Megatron's `lm loss:`). The full curve analysis lives
with the metric readers; this catches what a log alone shows.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, LogLine, SourceRef

_NUMBER = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|NaN|inf|Infinity|-inf)"
_METRIC = {
    "loss": re.compile(
        r"(?i)(?<!\w)(?:lm |train_|train/|train |total_|total )?loss"
        rf"['\"]?\s*[:=]?\s*['\"]?(?:tensor\()?({_NUMBER})"
    ),
    # transformers 5 prints logged values quoted: {'loss': '1.23', 'grad_norm': '0.5'}
    "grad_norm": re.compile(rf"grad[_ ]norm['\"]?\s*[:=]\s*['\"]?(?:tensor\()?({_NUMBER})"),
    "eval_loss": re.compile(rf"(?i)\beval[_ ]loss['\"]?\s*[:=]\s*['\"]?(?:tensor\()?({_NUMBER})"),
}
# The series this analyzer judges; `series` reads the others for the loss-constant checks.
_JUDGED = ("loss", "grad_norm")
FINDING_IDS: tuple[str, ...] = (
    *(f"{metric}.non_finite" for metric in _JUDGED),
    "loss.non_finite_before_update",
    "loss.diverged",
)
_STEP = re.compile(r"(?:'step'|\b(?:step|iteration|current_steps))['\"]?\s*[:=]?\s*(\d+)")
KEEP: tuple[str, ...] = (r"(?i)loss['\"]?\s*[:=]?\s*['\"]?(?:tensor\()?(?:[-+]?\d|nan|inf)",)
MIN_POINTS_FOR_DIVERGENCE = 8  # logged losses before a rise counts as a trend, not noise
DIVERGED_RISE = 2.0  # the recent loss is at least this many times its lowest (and its first)
FIRST_STEP = 0  # the loss of the model as loaded: logged before the first optimizer step


@dataclass(frozen=True)
class Point:
    step: int
    value: float
    line: LogLine


# A cheap substring test before each regex: most retained lines hold neither.
_WORD = {"loss": "loss", "grad_norm": "norm", "eval_loss": "eval"}


def series(lines: tuple[LogLine, ...], metric: str) -> list[Point]:
    """The values of `metric` (loss, grad_norm, eval_loss) in the lines, with their steps."""
    points: list[Point] = []
    for line in lines:
        if _WORD[metric] not in line.text.lower():
            continue
        match = _METRIC[metric].search(line.text)
        if not match:
            continue
        step_match = _STEP.search(line.text)
        step = int(step_match.group(1)) if step_match else len(points) + 1
        points.append(Point(step, float(match.group(1).lower().replace("infinity", "inf")), line))
    return points


def _ref(point: Point) -> SourceRef:
    return SourceRef(source=point.line.source, line=point.line.line, text=point.line.text)


def _non_finite(metric: str, points: list[Point]) -> Finding | None:
    bad = next((p for p in points if not math.isfinite(p.value)), None)
    if bad is None:
        return None
    before = [p for p in points if p.step < bad.step and math.isfinite(p.value)]
    last = f"; last finite value {before[-1].value:g} at step {before[-1].step}" if before else ""
    summary = f"{metric} became {bad.value} at step {bad.step}{last}"
    return Finding(
        id=f"{metric}.non_finite",
        title=f"{metric} became non-finite",
        category="nan_inf",
        summary=summary,
        evidence=(_ref(bad),),
        values={"step": bad.step, "last_finite": before[-1].value if before else None},
    )


def _non_finite_before_update(points: list[Point]) -> Finding | None:
    """The first logged loss, at step 0, already non-finite: no optimizer step had run.

    Step 0 is the model as loaded, so the learning rate cannot have caused it;
    the forward pass did (the data, the initial weights, the loss's numerics).
    """
    first = points[0] if points else None
    if first is None or first.step != FIRST_STEP or math.isfinite(first.value):
        return None
    return Finding(
        id="loss.non_finite_before_update",
        title="loss was non-finite at step 0, before any optimizer step",
        category="nan_inf",
        summary=f"the first logged loss, at step {FIRST_STEP}, is {first.value}: no update had "
        "run, so the forward pass made it (the data, the weights as loaded or the loss's "
        "numerics), not the learning rate",
        evidence=(_ref(first),),
        values={"step": first.step},
    )


def _diverged(points: list[Point]) -> Finding | None:
    finite = [p for p in points if math.isfinite(p.value)]
    if len(finite) < MIN_POINTS_FOR_DIVERGENCE:
        return None
    lowest = min(finite, key=lambda p: p.value)
    tail = sorted(p.value for p in finite[-max(3, len(finite) // 10) :])
    tail_median = tail[len(tail) // 2]
    if lowest.value <= 0 or tail_median < max(DIVERGED_RISE * lowest.value, finite[0].value):
        return None
    ratio = tail_median / lowest.value
    summary = (
        f"loss fell to {lowest.value:g} at step {lowest.step}, then rose to a median of "
        f"{tail_median:g} over the last {len(tail)} logged steps ({ratio:.1f}x)"
    )
    arithmetic = Arithmetic(
        title="Loss divergence",
        result=summary,
        lines=(
            ArithmeticLine(
                label="lowest loss",
                formula="min over logged steps",
                value=lowest.value,
                source=f"{lowest.line.source}:{lowest.line.line}",
            ),
            ArithmeticLine(
                label="recent loss",
                formula=f"median of last {len(tail)} values",
                value=tail_median,
                source=f"{finite[-1].line.source}:{finite[-1].line.line}",
            ),
            ArithmeticLine(
                label="rise",
                formula="recent / lowest",
                value=round(ratio, 2),
                unit="x",
                source="computed",
            ),
        ),
    )
    return Finding(
        id="loss.diverged",
        title="Training loss diverged",
        category="divergence",
        summary=summary,
        evidence=(_ref(lowest), _ref(finite[-1])),
        values={"min_step": lowest.step, "ratio": round(ratio, 2)},
        arithmetic=arithmetic,
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """Non-finite loss/grad-norm (and one before any update) and a sustained loss rise."""
    found = {metric: series(evidence.lines, metric) for metric in _JUDGED}
    findings = [f for metric, points in found.items() if (f := _non_finite(metric, points))]
    if (before_update := _non_finite_before_update(found["loss"])) is not None:
        findings.append(before_update)
    if (finding := _diverged(found["loss"])) is not None:
        findings.append(finding)
    return findings
