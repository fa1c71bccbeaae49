"""Whole-run shape of the loss: sustained divergence, plateau from the start, overfitting.

All three compare medians over stretches of the run, so single spikes and noise
do not move them; each states the stretches and the ratio it compared.
"""

from __future__ import annotations

import math

import numpy as np

from trainwreck.curves.refs import arith, fmt, point, where
from trainwreck.curves.robust import centred_median
from trainwreck.model import Arithmetic, Finding, MetricSeries, MetricTable

MIN_POINTS = 30
MAX_POINTS = 5000
DIVERGED_RATIO = 2.0  # end of run vs lowest smoothed loss
PLATEAU_CHANGE = 0.05  # |log(first fifth / last fifth)| below this: flat
OVERFIT_RISE = 1.05
MIN_EVALS = 5
OVERFIT_SECOND_LAST = 1.03
TRAIN_STILL_FALLING = 1.01  # train loss at best eval / at end


def _finite(series: MetricSeries) -> tuple[np.ndarray, np.ndarray]:
    """Indices and log values of the positive finite points, in blocks of medians when long.

    The whole-run shape needs no more than MAX_POINTS points; block medians keep
    a long run's windows small (and the detectors fast) without letting spikes in.
    """
    keep = np.flatnonzero(np.isfinite(series.values) & (series.values > 0))
    logs = np.log(series.values[keep])
    block = -(-keep.size // MAX_POINTS)
    if block <= 1:
        return keep, logs
    usable = keep.size // block * block
    logs = np.median(logs[:usable].reshape(-1, block), axis=1)
    return keep[:usable][block // 2 :: block], logs


def _loss_logs(table: MetricTable) -> tuple[MetricSeries, np.ndarray, np.ndarray] | None:
    """The loss series with its finite points' indexes and log values, when enough."""
    series = table.series.get("loss")
    if series is None:
        return None
    index, logs = _finite(series)
    return (series, index, logs) if logs.size >= MIN_POINTS else None


def divergence(table: MetricTable) -> Finding | None:
    """The smoothed loss ends at least DIVERGED_RATIO x its lowest point and stays up."""
    found = _loss_logs(table)
    if found is None:
        return None
    series, index, logs = found
    window = max(5, logs.size // 50) | 1
    smooth = centred_median(logs, window)
    low = int(np.argmin(smooth))
    tail = max(3, logs.size // 20)
    end = float(np.median(logs[-tail:]))
    if end - smooth[low] < math.log(DIVERGED_RATIO) or low >= logs.size - tail:
        return None
    after = smooth[low:]
    onset = low + int(np.argmax(after > smooth[low] + math.log(1.1)))
    ratio = math.exp(end - smooth[low])
    low_step, onset_step = int(series.steps[index[low]]), int(series.steps[index[onset]])
    summary = (
        f"loss fell to {fmt(math.exp(smooth[low]))} (smoothed) at step {low_step}, started rising "
        f"at step {onset_step} and ended at a median of {fmt(math.exp(end))} ({ratio:.3g}x)"
    )
    lines = (
        arith(
            "lowest loss",
            f"min of the {window}-point running median",
            math.exp(smooth[low]),
            where(table, series, int(index[low])),
        ),
        arith(
            "end of run",
            f"median of the last {tail} values",
            math.exp(end),
            where(table, series, int(index[-1])),
        ),
        arith("rise", "end / lowest", round(ratio, 2), "computed", "x"),
        arith("clearly rising", "first step 10% above the lowest", onset_step, "computed"),
    )
    return Finding(
        id="loss.diverged",
        title="Training loss diverged",
        category="divergence",
        summary=summary,
        evidence=(point(table, series, int(index[low])), point(table, series, int(index[-1]))),
        values={
            "min_step": low_step,
            "onset_step": low_step,
            "rising_step": onset_step,
            "ratio": round(ratio, 2),
        },
        arithmetic=Arithmetic(title="Loss divergence", lines=lines, result=summary),
    )


def plateau(table: MetricTable) -> Finding | None:
    """No learning from the start: the last fifth of the run is where the first fifth was."""
    found = _loss_logs(table)
    if found is None:
        return None
    series, index, logs = found
    fifth = logs.size // 5
    first, last = float(np.median(logs[:fifth])), float(np.median(logs[-fifth:]))
    change = first - last
    if abs(change) >= PLATEAU_CHANGE:
        return None
    lowest = float(np.min(centred_median(logs, max(5, logs.size // 20) | 1)))
    if first - lowest >= 2 * PLATEAU_CHANGE:
        return None  # it learned, then came back up: a divergence, not a plateau
    lr = table.series.get("learning_rate")
    lr_note = ""
    if lr is not None and np.isfinite(lr.values).any() and float(np.nanmax(np.abs(lr.values))) == 0:
        lr_note = "; the learning rate was 0 throughout"
    summary = (
        f"loss did not fall: median {fmt(math.exp(first))} over the first fifth of the run "
        f"(to step {int(series.steps[index[fifth - 1]])}) and {fmt(math.exp(last))} over the last "
        f"fifth (a change of {100 * (math.exp(-change) - 1):+.1f}%){lr_note}"
    )
    lines = (
        arith(
            "start",
            f"median of the first {fifth} values",
            math.exp(first),
            where(table, series, int(index[0])),
        ),
        arith(
            "end",
            f"median of the last {fifth} values",
            math.exp(last),
            where(table, series, int(index[-1])),
        ),
        arith("change", "1 - end / start", round(1 - math.exp(-change), 4), "computed"),
    )
    return Finding(
        id="curves.plateau",
        title="Loss flat from the start (no learning)",
        category="wrong_output",
        summary=summary,
        evidence=(point(table, series, int(index[0])), point(table, series, int(index[-1]))),
        values={"start": round(math.exp(first), 6), "end": round(math.exp(last), 6)},
        arithmetic=Arithmetic(title="Plateau from the start", lines=lines, result=summary),
    )


def overfitting(table: MetricTable) -> Finding | None:
    """Eval loss turns up after its minimum while the training loss keeps falling."""
    train, evals = table.series.get("loss"), table.series.get("eval_loss")
    if train is None or evals is None:
        return None
    keep = np.flatnonzero(np.isfinite(evals.values))
    if keep.size < MIN_EVALS:
        return None
    values, steps = evals.values[keep], evals.steps[keep]
    best = int(np.argmin(values))
    after = values[best + 1 :]
    # A sustained rise: the last two evaluations both clearly above the best, not one bad eval.
    if (
        after.size < 2
        or values[-1] < values[best] * OVERFIT_RISE
        or values[-2] < values[best] * OVERFIT_SECOND_LAST
    ):
        return None
    t_index, t_logs = _finite(train)
    if t_logs.size < MIN_POINTS:
        return None
    t_steps = train.steps[t_index]
    window = max(5, t_logs.size // 20)
    centre = int(np.searchsorted(t_steps, steps[best]))
    at_best = float(np.median(t_logs[max(0, centre - window // 2) : centre + window // 2 + 1]))
    at_end = float(np.median(t_logs[-window:]))
    if at_best - at_end < math.log(TRAIN_STILL_FALLING):
        return None  # the training loss stopped falling too: not overfitting
    best_step = int(steps[best])
    summary = (
        f"eval loss was lowest ({fmt(float(values[best]))}) at step {best_step} and rose to "
        f"{fmt(float(values[-1]))} by step {int(steps[-1])} while the training loss kept falling "
        f"({fmt(math.exp(at_best))} -> {fmt(math.exp(at_end))}): overfitting from step {best_step}"
    )
    lines = (
        arith(
            "best eval loss",
            "min over evaluations",
            float(values[best]),
            where(table, evals, int(keep[best])),
        ),
        arith(
            "last eval loss",
            "final evaluation",
            float(values[-1]),
            where(table, evals, int(keep[-1])),
        ),
        arith(
            "eval rise", "last / best", round(float(values[-1] / values[best]), 3), "computed", "x"
        ),
        arith(
            "train change",
            "smoothed train loss at end / at best eval",
            round(math.exp(at_end - at_best), 3),
            "computed",
            "x",
        ),
    )
    return Finding(
        id="curves.overfitting",
        title="Overfitting: eval loss rises while training loss falls",
        category="wrong_output",
        summary=summary,
        evidence=(point(table, evals, int(keep[best])), point(table, evals, int(keep[-1]))),
        values={
            "step": best_step,
            "best_eval": float(values[best]),
            "last_eval": float(values[-1]),
        },
        arithmetic=Arithmetic(title="Overfitting", lines=lines, result=summary),
    )


EXPLOSION_RATIO = 1e3  # a jump no noise explains, so a few points suffice
MIN_EXPLOSION_POINTS = 3


def explosion(table: MetricTable) -> Finding | None:
    """The loss jumps to at least 1000x the median of everything before and never
    comes back below 100x: unambiguous even in a short paste of a few steps."""
    series = table.series.get("loss")
    if series is None:
        return None
    keep, logs = _finite(series)  # a long run in block medians: a lasting jump survives them
    if keep.size < MIN_EXPLOSION_POINTS:
        return None
    values = np.exp(logs)
    floor = np.minimum.accumulate(values)  # floor[i] = min(values[: i + 1])
    rest = np.minimum.accumulate(values[::-1])[::-1]  # rest[i] = min(values[i:])
    # The median of the values before a point is at least their minimum, so the rule can
    # only hold where it holds against that minimum: the exact medians are taken there only.
    candidates = 2 + np.flatnonzero(
        (values[2:] >= EXPLOSION_RATIO * floor[1:-1]) & (rest[2:] >= 100 * floor[1:-1])
    )
    for at in candidates.tolist():
        before = float(np.median(values[:at]))
        if values[at] >= EXPLOSION_RATIO * before and rest[at] >= 100 * before:
            step = int(series.steps[keep[at]])
            ratio = float(values[at] / before)
            summary = (
                f"loss jumped from a median of {fmt(before)} to {fmt(float(values[at]))} at step "
                f"{step} ({ratio:.3g}x) and never came back"
            )
            lines = (
                arith("median before", f"median of the {at} earlier values", before, "computed"),
                arith(
                    "loss at the jump",
                    "logged",
                    float(values[at]),
                    where(table, series, int(keep[at])),
                ),
                arith("jump", "loss / median before", round(ratio, 3), "computed", "x"),
            )
            return Finding(
                id="curves.loss_explosion",
                title="Loss exploded",
                category="divergence",
                summary=summary,
                evidence=(point(table, series, int(keep[at])),),
                values={"step": step, "ratio": round(ratio, 3), "before": round(before, 6)},
                arithmetic=Arithmetic(title="Loss explosion", lines=lines, result=summary),
            )
    return None
