"""Robust statistics on curves: trailing rolling median and minimum, and a noise scale.

Spikes are judged against what the curve was doing just before (a trailing
median, blind to the spike itself) in units of the curve's own step-to-step
noise (MAD of first differences), which a trend or a spike barely moves.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from numpy.typing import NDArray

MAD_TO_SIGMA = 1.4826
_CHUNK_ROWS = 131_072
NOISE_BLOCK = 2048
Floats = NDArray[np.float64]


def trailing_min(values: Floats, window: int) -> Floats:
    """Minimum of the `window` values before each point (the first value pads the start).

    A trailing median is never below it, so it bounds how far a point can rise
    above its median at a small fraction of the median's cost.
    """
    if values.size == 0:
        return values.copy()
    padded = np.concatenate([np.full(window, values[0]), values[:-1]])
    span, low = 1, padded  # low[i] = min(padded[i : i + span]), doubling span each pass
    while span * 2 <= window:
        low = np.minimum(low[:-span], low[span:])
        span *= 2
    size = values.shape[0]  # two overlapping spans cover each window exactly
    return np.asarray(np.minimum(low[:size], low[window - span : window - span + size]))


def trailing_median_at(values: Floats, window: int, at: NDArray[np.intp]) -> Floats:
    """Median of the `window` values before each point in `at` (the first value pads the start)."""
    if at.size == 0:
        return np.empty(0)
    padded = np.concatenate([np.full(window, values[0]), values[:-1]])
    view = sliding_window_view(padded, window)
    out = np.empty(at.shape[0])
    for start in range(0, at.shape[0], _CHUNK_ROWS):
        stop = min(start + _CHUNK_ROWS, at.shape[0])
        out[start:stop] = np.median(view[at[start:stop]], axis=1)
    return out


def centred_median(values: Floats, window: int) -> Floats:
    """Median of a window centred on each point; the ends take the nearest full window's.

    Padding the ends with the edge value instead would let one noisy last point
    fill half the window and pass for the curve's level.
    """
    if values.size == 0:
        return values.copy()
    if values.size <= window:
        return np.full(values.shape[0], float(np.median(values)))
    half = window // 2
    view = sliding_window_view(values, 2 * half + 1)
    valid = np.empty(view.shape[0])
    for start in range(0, view.shape[0], _CHUNK_ROWS):
        stop = min(start + _CHUNK_ROWS, view.shape[0])
        valid[start:stop] = np.median(view[start:stop], axis=1)
    return np.concatenate([np.full(half, valid[0]), valid, np.full(half, valid[-1])])


def noise_scale(values: Floats) -> Floats:
    """Per-point noise sigma: MAD of first differences / sqrt(2), in blocks of NOISE_BLOCK."""
    out = np.empty(values.shape[0])
    diffs = np.abs(np.diff(values, prepend=values[:1]))
    for start in range(0, values.shape[0], NOISE_BLOCK):
        stop = min(start + NOISE_BLOCK, values.shape[0])
        block = diffs[max(start, 1) : stop] if stop - max(start, 1) > 8 else diffs[1:]
        out[start:stop] = MAD_TO_SIGMA * float(np.median(block)) / np.sqrt(2.0)
    return np.maximum(out, 1e-12)


def groups(flags: NDArray[np.bool_], max_gap: int) -> list[tuple[int, int]]:
    """Runs of flagged indices as (first, last), joining runs closer than max_gap."""
    index = np.flatnonzero(flags)
    if index.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(index) > max_gap)
    starts = np.concatenate([index[:1], index[breaks + 1]])
    ends = np.concatenate([index[breaks], index[-1:]])
    return list(zip(starts.tolist(), ends.tolist(), strict=True))
