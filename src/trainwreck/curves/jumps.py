"""A loss that rises an order of magnitude between two logged steps: one update broke it.

`spikes` needs a baseline (MIN_POINTS logged values) and a recovery; a run that blows
up in its first steps has neither, yet `5.55 → 388.8` from step 1 to step 2 is the
clearest sign there is that one optimizer step was far too large. Step-to-step noise
of a loss is a few percent, so a tenfold rise in one logged step is never noise.
A jump must also land above the loss the run started from: near zero late in training,
0.0001 → 0.02 is a big ratio of nothing, while 5.5 → 388 undid everything learned.
The gradient norm logged at those steps, when present, says whether the update did it.
"""

from __future__ import annotations

import numpy as np

from trainwreck.curves.refs import arith, fmt, point, step_of, where
from trainwreck.model import Arithmetic, Finding, MetricTable

JUMP_RATIO = 10.0  # an order of magnitude between consecutive logged losses


def loss_jump(table: MetricTable) -> Finding | None:
    """The largest one-step rise of the loss, when it is JUMP_RATIO or more."""
    loss = table.series.get("loss")
    if loss is None or len(loss) < 2:
        return None
    values = loss.values
    before, after = values[:-1], values[1:]
    finite = values[np.isfinite(values)]
    start = float(finite[0]) if finite.size else 0.0
    valid = np.isfinite(before) & np.isfinite(after) & (before > 0) & (after > start)
    ratios = np.where(valid, after / np.where(before > 0, before, 1.0), 0.0)
    index = int(np.argmax(ratios))
    ratio = float(ratios[index])
    if ratio < JUMP_RATIO:
        return None
    at = index + 1
    step = step_of(loss, at)
    summary = (
        f"loss jumped {ratio:.0f}x in one logged step: {fmt(float(values[index]))} at step "
        f"{step_of(loss, index)} → {fmt(float(values[at]))} at step {step}"
    )
    lines = [
        arith(
            "loss before",
            f"step {step_of(loss, index)}",
            float(values[index]),
            where(table, loss, index),
        ),
        arith("loss after", f"step {step}", float(values[at]), where(table, loss, at)),
        arith("jump", "after / before", round(ratio, 1), "computed", "x"),
    ]
    grad = table.series.get("grad_norm")
    if grad is not None and len(grad) == len(loss):
        summary += f"; grad norm {fmt(float(grad.values[index]))} → {fmt(float(grad.values[at]))}"
        lines.append(
            arith(
                "grad norm",
                f"steps {step_of(loss, index)} → {step}",
                f"{fmt(float(grad.values[index]))} → {fmt(float(grad.values[at]))}",
                where(table, grad, at),
            )
        )
    return Finding(
        id="curves.loss_jump",
        title=f"Loss spike: {ratio:.0f}x in one step at step {step}",
        category="divergence",
        summary=summary,
        evidence=(point(table, loss, at),),
        values={"step": step, "ratio": round(ratio, 1)},
        arithmetic=Arithmetic(title="One-step loss jump", lines=tuple(lines), result=summary),
    )
