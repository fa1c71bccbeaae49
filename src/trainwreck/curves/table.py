"""Build a MetricTable from points or columns: sorted by step, one value per step.

A run resumed from a checkpoint logs some steps twice (or jumps back); the
latest value logged for a step wins and a note says so, so the detectors see one
curve and the report says what was merged.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from trainwreck.curves.names import canonical
from trainwreck.model import MetricSeries, MetricTable, Scalar

WALL = "wall_seconds"
Columns = tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]]


def _latest_per_step(name: str, columns: Columns) -> tuple[MetricSeries, int]:
    """Sort by step (stable, so log order breaks ties); keep the last value per step."""
    steps, values, lines = columns
    went_back = steps.size > 1 and bool(np.any(np.diff(steps) < 0))
    if went_back:
        order = np.argsort(steps, kind="stable")
        steps, values, lines = steps[order], values[order], lines[order]
    keep = np.ones(steps.shape[0], dtype=bool)
    if steps.size > 1:
        keep[:-1] = steps[1:] != steps[:-1]
    # Equal steps in log order are one step's rows (Lightning writes train and val
    # rows apart); only a step counter that went back means a resumed run.
    repeated = int(steps.shape[0] - np.count_nonzero(keep)) if went_back else 0
    series = MetricSeries(name=name, steps=steps[keep], values=values[keep], lines=lines[keep])
    return series, repeated


class TableBuilder:
    """Collects points per metric from a reader, in the order they were logged."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._points: dict[str, tuple[list[int], list[float], list[int]]] = {}
        self._columns: dict[str, list[Columns]] = {}
        self.info: dict[str, Scalar] = {}
        self.notes: list[str] = []

    def add(self, name: str, step: int, value: float, line: int = 0) -> None:
        steps, values, lines = self._points.setdefault(canonical(name), ([], [], []))
        steps.append(step)
        values.append(value)
        lines.append(line)

    def add_columns(
        self,
        name: str,
        steps: NDArray[np.int64],
        values: NDArray[np.float64],
        lines: NDArray[np.int64],
    ) -> None:
        self._columns.setdefault(canonical(name), []).append((steps, values, lines))

    def _merged(self) -> Mapping[str, Columns]:
        merged: dict[str, Columns] = {}
        for name in sorted({*self._points, *self._columns}):
            parts = list(self._columns.get(name, ()))
            if name in self._points:
                steps, values, lines = self._points[name]
                parts.append(
                    (
                        np.asarray(steps, dtype=np.int64),
                        np.asarray(values, dtype=np.float64),
                        np.asarray(lines, dtype=np.int64),
                    )
                )
            merged[name] = (
                parts[0]
                if len(parts) == 1
                else (
                    np.concatenate([p[0] for p in parts]),
                    np.concatenate([p[1] for p in parts]),
                    np.concatenate([p[2] for p in parts]),
                )
            )
        return merged

    def build(self) -> MetricTable:
        series: dict[str, MetricSeries] = {}
        repeats: dict[str, int] = {}
        for name, columns in self._merged().items():
            if columns[0].size == 0:
                continue
            series[name], repeated = _latest_per_step(name, columns)
            if repeated:
                repeats[name] = repeated
        notes = list(self.notes)
        if repeats:
            worst = max(repeats, key=lambda n: repeats[n])
            notes.append(
                f"{repeats[worst]} step(s) of {worst} were logged more than once (a resumed "
                "run?); the latest value for each step was kept"
            )
        wall = series.pop(WALL, None)
        return MetricTable(
            source=self.source,
            series=series,
            wall_seconds=wall,
            info=dict(self.info),
            notes=tuple(notes),
        )
