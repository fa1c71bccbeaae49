"""Gradient clipping against the logged gradient norm: never reached, or reached at every step.

Needs the clipping threshold from the run's config (`max_grad_norm` of the HF
TrainingArguments, DeepSpeed's `gradient_clipping`, Lightning's
`gradient_clip_val`). The HF Trainer logs the norm before clipping, so a logged
norm at or above the threshold means that step was clipped.
Neither outcome is a failure by itself, so the findings carry no category: they
are context for a spike, a divergence or a slow run, not a hypothesis alone.
"""

from __future__ import annotations

import numpy as np

from trainwreck.curves.facts import RunFacts
from trainwreck.curves.refs import arith, fmt, point, where
from trainwreck.model import Arithmetic, Finding, MetricTable

MIN_POINTS = 20
ALWAYS = 0.95  # share of logged steps at or above the threshold


def clipping(table: MetricTable, facts: RunFacts) -> Finding | None:
    limit = facts.get("max_grad_norm")
    grad = table.series.get("grad_norm")
    if limit is None or limit.value <= 0 or grad is None:
        return None
    keep = np.flatnonzero(np.isfinite(grad.values))
    if keep.size < MIN_POINTS:
        return None
    values = grad.values[keep]
    clipped = int(np.count_nonzero(values >= limit.value))
    share = clipped / keep.size
    top = int(np.argmax(values))
    lowest = int(np.argmin(values))
    if share >= ALWAYS:
        mode, at = "always", lowest
        summary = (
            f"grad_norm was at or above the clipping threshold {fmt(limit.value)} at {clipped} of "
            f"{keep.size} logged steps ({share:.0%}; lowest {fmt(float(values[lowest]))}): "
            "clipping rescaled nearly every update, so the threshold, not the learning rate "
            "alone, set the step size"
        )
    elif clipped == 0:
        mode, at = "never", top
        summary = (
            f"grad_norm never reached the clipping threshold {fmt(limit.value)}: its largest "
            f"logged value was {fmt(float(values[top]))} at step {int(grad.steps[keep[top]])} "
            f"({float(values[top]) / limit.value:.2f}x the threshold), so clipping never acted"
        )
    else:
        return None
    lines = (
        arith("threshold", "as configured", limit.value, limit.source),
        arith("logged steps", "finite grad_norm values", int(keep.size), table.source),
        arith("clipped steps", "grad_norm >= threshold", clipped, "computed"),
        arith("share clipped", "clipped / logged", round(share, 4), "computed"),
        arith(
            "largest grad_norm",
            "max over logged steps",
            float(values[top]),
            where(table, grad, int(keep[top])),
        ),
    )
    return Finding(
        id="curves.clipping",
        title=f"Gradient clipping {'always' if mode == 'always' else 'never'} reached",
        summary=summary,
        evidence=(point(table, grad, int(keep[at])),),
        values={
            "mode": mode,
            "threshold": limit.value,
            "clipped_share": round(share, 4),
            "max_grad_norm_seen": float(values[top]),
        },
        arithmetic=Arithmetic(
            title="Clipping threshold vs gradient norm", lines=lines, result=summary
        ),
    )
