"""Interval arithmetic over a trace's kept events: busy time, nesting, which step holds what.

GPU kernels run on several streams at once, so time busy is the length of the union of
their intervals, not the sum of their durations; communication hidden behind compute is
the part of its union that compute's union also covers. Operators nest (`aten::item` runs
`aten::_local_scalar_dense`), so a synchronisation is counted once, at its outermost
operator.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
# Explicit waits with no operator of the user's around them: torch.cuda.synchronize() and
# Stream.synchronize(). A cudaEventSynchronize outside a marked operator is a library's own
# (DistributedDataParallel's forward issues them), not a read of the user's.
EXPLICIT_SYNCS = frozenset({"cudaDeviceSynchronize", "cudaStreamSynchronize"})


class Span(NamedTuple):
    """An operator or call on one host thread: [start, end) in microseconds, and its kind."""

    tid: object
    start: float
    end: float
    kind: str


class Segments(NamedTuple):
    """Disjoint, sorted intervals: the union of a set of intervals."""

    starts: Floats
    ends: Floats


def union(starts: Floats, ends: Floats) -> Segments:
    """The union of intervals as disjoint segments, in one sort and one running maximum."""
    if not len(starts):
        return Segments(starts, ends)
    order = np.argsort(starts, kind="stable")
    start, end = starts[order], ends[order]
    reach = np.maximum.accumulate(end)
    opens = np.flatnonzero(np.concatenate(([True], start[1:] > reach[:-1])))
    closes = np.concatenate((opens[1:] - 1, [len(start) - 1]))
    return Segments(start[opens], reach[closes])


def covered(segments: Segments, start: float, end: float) -> float:
    """How much of [start, end) the segments cover."""
    first = int(np.searchsorted(segments.ends, start, side="right"))
    last = int(np.searchsorted(segments.starts, end, side="left"))
    if first >= last:
        return 0.0
    inside = np.minimum(segments.ends[first:last], end) - np.maximum(
        segments.starts[first:last], start
    )
    return float(np.clip(inside, 0.0, None).sum())


def outermost(spans: Sequence[Span]) -> list[Span]:
    """The spans not nested inside another span of the same thread."""
    kept: list[Span] = []
    reach: dict[object, float] = {}
    for span in sorted(spans, key=lambda span: (str(span.tid), span.start, -span.end)):
        if span.end <= reach.get(span.tid, float("-inf")):
            continue
        kept.append(span)
        reach[span.tid] = span.end
    return kept


def device_syncs(ops: Sequence[Span], calls: Sequence[Span]) -> list[Span]:
    """Each operator that made the host wait, once, and each explicit wait outside one.

    A wait is a synchronising runtime call; it is charged to the outermost marked
    operator around it on its thread (the whole operator is the time the host lost).
    """
    by_thread: dict[object, list[Span]] = {}
    for span in outermost(ops):
        by_thread.setdefault(span.tid, []).append(span)
    starts = {tid: [span.start for span in spans] for tid, spans in by_thread.items()}
    charged: dict[Span, None] = {}
    for call in calls:
        spans = by_thread.get(call.tid, [])
        at = bisect_right(starts.get(call.tid, []), call.start) - 1
        if at >= 0 and call.start <= spans[at].end:
            charged[spans[at]] = None
        elif call.kind in EXPLICIT_SYNCS:
            charged[call._replace(kind="synchronize")] = None
    return list(charged)


def step_of(starts: Sequence[float], ends: Sequence[float], at: float) -> int | None:
    """The index of the step whose [start, end) holds `at`, if any (steps sorted, disjoint)."""
    index = bisect_right(starts, at) - 1
    return index if index >= 0 and at < ends[index] else None


def inside(starts: Sequence[float], ends: Sequence[float], points: Floats) -> NDArray[np.bool_]:
    """Which points fall inside one of the steps [start, end) (steps sorted, disjoint)."""
    index = np.searchsorted(np.asarray(starts, dtype=np.float64), points, side="right") - 1
    bounded = np.clip(index, 0, None)
    return (index >= 0) & (points < np.asarray(ends, dtype=np.float64)[bounded])


def median(values: Floats) -> float | None:
    """The median, or None for no values."""
    return float(np.median(values)) if len(values) else None
