"""Where BAD's curve leaves GOOD's: the first shared step where the two differ by more than
GOOD's own step-to-step noise explains.

GOOD's noise at a step is the standard deviation of its values over a window of logged
steps centred there; BAD has left the band when |BAD - GOOD| exceeds a multiple of it
(or a fraction of GOOD's value, so a flat GOOD curve does not make every wiggle count).
A non-finite BAD value leaves the band wherever GOOD's is finite.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from trainwreck.compare.model import Departure
from trainwreck.model import Arithmetic, ArithmeticLine, MetricSeries, MetricTable

Direction = Literal["above", "below", "non-finite"]
# Metrics compared, in report order (the curves layer's canonical names, curves/names.py).
# Not grad_norm: on the tests' tiny Trainer run, changing only the seed moves it out of
# this band (tests/compare), while the loss stays inside.
METRICS = ("loss", "eval_loss")
# Logged points in GOOD's noise window: the point itself and two on each side, the fewest
# that give a standard deviation of more than two values while following a falling curve.
BAND_WINDOW = 5
# Three standard deviations: the conventional bound outside which a value is not noise
# (0.27% of a Gaussian falls beyond it), so one compared point rarely trips it by chance.
BAND_SIGMAS = 3.0
# The narrowest band, as a fraction of GOOD's value: a judgement (not a measurement) that
# two losses within 5% of each other are the same curve to a reader.
MIN_BAND_FRACTION = 0.05


def _series(tables: list[MetricTable], metric: str) -> tuple[MetricSeries, str] | None:
    """The first table's series of `metric` (metric files come before logs)."""
    for table in tables:
        if metric in table.series and len(table.series[metric]):
            return table.series[metric], table.source
    return None


def _noise(values: np.ndarray, index: int) -> tuple[float, int, int]:
    """GOOD's standard deviation over the window centred at `index`, and the window's ends."""
    start = max(0, index - BAND_WINDOW // 2)
    stop = min(len(values), start + BAND_WINDOW)
    start = max(0, stop - BAND_WINDOW)
    window = values[start:stop]
    window = window[np.isfinite(window)]
    return (float(np.std(window)) if window.size else 0.0), start, stop - 1


def departure(
    metric: str, good_tables: list[MetricTable], bad_tables: list[MetricTable]
) -> Departure | None:
    """Where BAD's `metric` first leaves GOOD's band; None when a run did not log it."""
    good, bad = _series(good_tables, metric), _series(bad_tables, metric)
    if good is None or bad is None:
        return None
    (good_series, good_source), (bad_series, bad_source) = good, bad
    shared, good_at, bad_at = np.intersect1d(
        good_series.steps, bad_series.steps, assume_unique=True, return_indices=True
    )
    for step, i, j in zip(shared.tolist(), good_at.tolist(), bad_at.tolist(), strict=True):
        good_value, bad_value = float(good_series.values[i]), float(bad_series.values[j])
        if not math.isfinite(good_value):
            continue
        std, first, last = _noise(good_series.values, i)
        half_width = max(BAND_SIGMAS * std, MIN_BAND_FRACTION * abs(good_value))
        distance = abs(bad_value - good_value) if math.isfinite(bad_value) else math.inf
        if distance <= half_width:
            continue
        steps = (int(good_series.steps[first]), int(good_series.steps[last]))
        lines = (
            ArithmeticLine(
                label=f"GOOD {metric}",
                formula=f"step {step}",
                value=good_value,
                source=good_source,
            ),
            ArithmeticLine(
                label=f"BAD {metric}", formula=f"step {step}", value=bad_value, source=bad_source
            ),
            ArithmeticLine(
                label="GOOD's noise",
                formula=f"std of GOOD's {metric} at steps {steps[0]}..{steps[1]}",
                value=round(std, 6),
                source=good_source,
            ),
            ArithmeticLine(
                label="band half-width",
                formula=f"max({BAND_SIGMAS:g} x {std:.4g}, {MIN_BAND_FRACTION:g} x "
                f"|{good_value:.4g}|)",
                value=round(half_width, 6),
                source="compare/curves.py: BAND_SIGMAS, MIN_BAND_FRACTION",
            ),
            ArithmeticLine(
                label="|BAD - GOOD|",
                formula=f"|{bad_value:.4g} - {good_value:.4g}|",
                value=distance if math.isfinite(distance) else "non-finite",
                source="the two values above",
            ),
        )
        arithmetic = Arithmetic(
            title=f"BAD's {metric} leaves GOOD's band at step {step}",
            lines=lines,
            result=f"{distance:.4g} > {half_width:.4g} at step {step}",
        )
        direction: Direction = "below" if bad_value < good_value else "above"
        if not math.isfinite(bad_value):
            direction = "non-finite"
        return Departure(metric, len(shared), step, direction, arithmetic)
    return Departure(metric, len(shared))


def departures(good_tables: list[MetricTable], bad_tables: list[MetricTable]) -> list[Departure]:
    """Each compared metric both runs logged, with where BAD leaves GOOD's band."""
    found = (departure(metric, good_tables, bad_tables) for metric in METRICS)
    return [item for item in found if item is not None]
