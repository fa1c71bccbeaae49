"""Oscillation: the loss swinging up and down with a fixed rhythm, larger than its noise.

Works on the step-to-step changes d of log-loss, where a smooth trend vanishes.
Noise gives changes that are uncorrelated beyond one step (and -0.5 correlated at
one step); an oscillation with half-period L gives changes that are strongly
anti-correlated at lag L and correlated again at lag 2L. A single spike gives at
most -0.5 at lag 1, so spikes do not pass. Vectorised: every lag from one FFT.
"""

from __future__ import annotations

import math

import numpy as np

from trainwreck.curves.refs import arith, around, point
from trainwreck.model import Arithmetic, Finding, MetricTable

MIN_POINTS = 40
MAX_HALF_PERIOD = 50
ANTI = -0.5  # autocorrelation of the changes at the half period, at most
ANTI_ONE = -0.75  # at lag 1, where plain noise already gives -0.5
AGAIN = 0.3  # autocorrelation at the full period, at least
MIN_SWING = math.log(1.25)  # median up-to-down swing: a 25% change in the loss


def _autocorrelation(d: np.ndarray, lags: int) -> np.ndarray:
    """acf[k] for k = 0..lags of the centred changes (acf[0] = 1)."""
    centred = d - d.mean()
    energy = float(centred @ centred)
    if energy == 0:
        return np.zeros(lags + 1)
    size = 1 << (2 * d.size - 1).bit_length()  # zero-padded: no wrap-around between lags
    spectrum = np.fft.rfft(centred, size)
    return np.fft.irfft(spectrum * np.conj(spectrum), size)[: lags + 1] / energy


def _onset(d: np.ndarray, half: int) -> int:
    """First change index where the rolling product d[i] * d[i + half] turns strongly negative."""
    products = d[:-half] * d[half:]
    window = max(8, 4 * half)
    if products.size <= window:
        return 0
    sums = np.cumsum(np.concatenate([[0.0], products]))
    rolling = (sums[window:] - sums[:-window]) / window
    threshold = 0.5 * float(np.quantile(rolling, 0.1))
    return int(np.argmax(rolling <= threshold))


def oscillation(table: MetricTable) -> Finding | None:
    """The loss alternates up and down every `half` points by more than MIN_SWING."""
    series = table.series.get("loss")
    if series is None:
        return None
    keep = np.flatnonzero(np.isfinite(series.values) & (series.values > 0))
    if keep.size < MIN_POINTS:
        return None
    logs = np.log(series.values[keep])
    d = np.diff(logs)
    lags = min(MAX_HALF_PERIOD, d.size // 8)
    acf = _autocorrelation(d, 2 * lags)
    half = 1 + int(np.argmin(acf[1 : lags + 1]))
    limit = ANTI_ONE if half == 1 else ANTI
    if acf[half] > limit or acf[2 * half] < AGAIN:
        return None
    start = _onset(d, half)
    swings = np.abs(logs[start + half :] - logs[start : logs.size - half])
    swing = float(np.median(swings))
    if swing < MIN_SWING:
        return None
    at = int(keep[start])
    step = int(series.steps[at])
    period_steps = int(series.steps[keep[min(start + 2 * half, keep.size - 1)]]) - step
    ratio = math.exp(swing)
    summary = (
        f"loss oscillates from step {step}: it goes up and down every {half} logged point(s) "
        f"(a period of about {period_steps} steps), by a median factor of {ratio:.2f} between "
        f"neighbouring highs and lows; noise does not alternate like this "
        f"(values around it: {around(series, at, 3)})"
    )
    lines = (
        arith(
            "anti-correlation",
            f"autocorrelation of log-loss changes at lag {half}",
            round(float(acf[half]), 3),
            "computed",
        ),
        arith(
            "repeat",
            f"autocorrelation at lag {2 * half} (one full period)",
            round(float(acf[2 * half]), 3),
            "computed",
        ),
        arith(
            "noise reference", "lag-1 value for white noise: -1/2", -0.5, "changes of white noise"
        ),
        arith(
            "swing",
            f"median |log loss[i + {half}] - log loss[i]|, as a ratio",
            round(ratio, 3),
            "computed",
            "x",
        ),
        arith("onset", "first step where the swings dominate", step, "computed", "step"),
    )
    return Finding(
        id="curves.oscillation",
        title="Loss oscillates",
        category="divergence",
        summary=summary,
        evidence=(point(table, series, at),),
        values={
            "step": step,
            "half_period_points": half,
            "period_steps": period_steps,
            "swing_ratio": round(ratio, 3),
            "lag_correlation": round(float(acf[half]), 3),
        },
        arithmetic=Arithmetic(title="Loss oscillation", lines=lines, result=summary),
    )
