"""Metric stores that are not text: MLflow runs (file store or SQLite) and TensorBoard events.

Each run becomes its own MetricTable, with the params it logged (learning rate,
batch size: facts the curve checks use) as raw strings for the evidence to coerce.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field

import numpy as np

from trainwreck.curves.readers import finish_table
from trainwreck.curves.table import WALL, TableBuilder
from trainwreck.limits import (
    MAX_METRICS_TEXT_BYTES,
    MAX_MLFLOW_METRIC_BYTES,
    MAX_PARAM_BYTES,
    MAX_WALK_FILES,
    MIB,
    special_file,
)
from trainwreck.model import Gap, MetricTable

TENSORBOARD_MISSING = (
    "TensorBoard event file skipped: reading it needs the optional 'tensorboard' "
    "package (pip install 'trainwreck[tensorboard]')"
)
# MLflow's SQL store cannot hold inf: it writes the largest float64 in its place
# (mlflow 3.18.0, SqlAlchemyStore.sanitize_metric_value), and NaN as 0 with is_nan set.
_SQL_INF = 1.7976931348623157e308
_RUN_LIMIT = f"not read: the run's metric files together passed {MAX_METRICS_TEXT_BYTES // MIB} MiB"


@dataclass(frozen=True)
class StoreRun:
    """One run read from a store: its curves (or why not) and its logged params."""

    table: MetricTable | Gap
    params: dict[str, str] = field(default_factory=dict)
    gaps: tuple[Gap, ...] = ()  # metric files cut at a limit or not readable


def run_points(path: str, limit: int) -> tuple[np.ndarray | None, str | None]:
    """An MLflow metric file's rows of (timestamp ms, value, step), bad lines skipped, from
    its first `limit` bytes; and, when the file is longer, a note saying so. Raises OSError."""
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
        size = os.fstat(handle.fileno()).st_size
    note = None
    if len(data) > limit:
        data = data[: data.rfind(b"\n", 0, limit) + 1]  # the cut last line is dropped
        amount = f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit:,} bytes"
        note = f"metric file past the size limit: read the first {amount} of {size:,} bytes"
    points: list[tuple[float, float, float]] = []
    for line in data.split(b"\n"):
        parts = line.split()
        try:
            points.append((float(parts[0]), float(parts[1]), float(parts[2])))
        except (ValueError, IndexError):
            continue
    return (np.array(points) if points else None), note


def _files_under(folder: str) -> list[tuple[str, str]]:
    """(name relative to folder with '/' separators, path) of every regular file below it
    (a FIFO would block the read forever), at most MAX_WALK_FILES of them."""
    found = []
    for root, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            path = os.path.join(root, name)
            if special_file(path) is None:
                found.append((os.path.relpath(path, folder).replace(os.sep, "/"), path))
    return found[:MAX_WALK_FILES]


def _params_of(run_dir: str) -> dict[str, str]:
    params = {}
    for name, path in _files_under(os.path.join(run_dir, "params")):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                params[name] = handle.read(MAX_PARAM_BYTES).strip()
        except OSError:
            continue
    return params


def read_mlflow_run(run_dir: str) -> StoreRun:
    """File store `mlruns/<experiment>/<run>/`: metrics/<name> files of `timestamp value step`."""
    builder = TableBuilder(run_dir)
    have_wall = False
    gaps: list[Gap] = []
    left = MAX_METRICS_TEXT_BYTES  # the run's metric files together
    for metric, path in _files_under(os.path.join(run_dir, "metrics")):
        if left <= 0:
            gaps.append(Gap(source=path, reason=_RUN_LIMIT))
            continue
        try:
            data, note = run_points(path, min(MAX_MLFLOW_METRIC_BYTES, left))
            left -= os.path.getsize(path)
        except OSError as error:
            reason = (error.strerror or type(error).__name__).lower()
            gaps.append(Gap(source=path, reason=f"cannot read this metric file: {reason}"))
            continue
        gaps.extend([Gap(source=path, reason=note)] if note else [])
        if data is None:
            continue
        steps = data[:, 2].astype(np.int64)
        lines = np.zeros(data.shape[0], dtype=np.int64)  # the table's source is the run folder
        builder.add_columns(metric, steps, data[:, 1], lines)
        if not have_wall:
            builder.add_columns(WALL, steps, data[:, 0] / 1000.0, lines)
            have_wall = True
    return StoreRun(finish_table(builder, "MLflow run"), _params_of(run_dir), tuple(gaps))


def _sql_rows(path: str, query: str) -> list[tuple[object, ...]]:
    uri = "file:" + os.path.abspath(path) + "?mode=ro"
    connection = sqlite3.connect(uri, uri=True)
    # A corrupted database holds invalid UTF-8 in its text columns: replaced, not fatal.
    connection.text_factory = lambda data: data.decode("utf-8", "replace")
    try:
        return connection.execute(query).fetchall()
    finally:
        connection.close()


def read_mlflow_db(path: str) -> list[StoreRun] | Gap:
    """MLflow's SQLite store (`mlflow.db`, the default since MLflow 3): one table per run."""
    try:
        metrics = _sql_rows(
            path,
            "SELECT m.run_uuid, COALESCE(NULLIF(r.name, ''), m.run_uuid), m.key, m.step, "
            "m.value, m.is_nan, m.timestamp FROM metrics m LEFT JOIN runs r "
            "ON r.run_uuid = m.run_uuid ORDER BY m.run_uuid, m.key, m.timestamp",
        )
        params = _sql_rows(path, "SELECT run_uuid, key, value FROM params")
    except sqlite3.Error as error:
        return Gap(source=path, reason=f"not an MLflow database ({error})")
    by_run: dict[str, TableBuilder] = {}
    timed: dict[str, object] = {}  # per run, the one metric whose timestamps give wall time
    for run, name, key, step, value, is_nan, stamp in metrics:
        builder = by_run.setdefault(str(run), TableBuilder(f"{path}#{name}"))
        number = float(value) if isinstance(value, int | float) else float("nan")
        if is_nan:
            number = float("nan")
        elif abs(number) == _SQL_INF:
            number = float(np.copysign(np.inf, number))
        step_number = int(step) if isinstance(step, int) else 0
        builder.add(str(key), step_number, number)
        if isinstance(stamp, int) and timed.setdefault(str(run), key) == key:
            builder.add(WALL, step_number, stamp / 1000.0)
    logged: dict[str, dict[str, str]] = {}
    for run, key, value in params:
        logged.setdefault(str(run), {})[str(key)] = str(value)
    return [
        StoreRun(finish_table(builder, "MLflow run"), logged.get(run, {}))
        for run, builder in by_run.items()
    ]


def read_tensorboard(path: str) -> StoreRun:
    """Scalars of a TensorBoard event file or directory, via the optional package."""
    try:
        from tensorboard.backend.event_processing import event_accumulator
    except ImportError:
        return StoreRun(Gap(source=path, reason=TENSORBOARD_MISSING))
    accumulator = event_accumulator.EventAccumulator(path, size_guidance={"scalars": 0})
    try:
        accumulator.Reload()
    except Exception as error:  # a corrupt event file is a gap, never a crash
        return StoreRun(Gap(source=path, reason=f"cannot read TensorBoard events: {error}"))
    builder = TableBuilder(path)
    for tag in accumulator.Tags().get("scalars", []):
        events = accumulator.Scalars(tag)
        steps = np.array([e.step for e in events], dtype=np.int64)
        values = np.array([e.value for e in events], dtype=np.float64)
        zeros = np.zeros(steps.shape[0], dtype=np.int64)
        builder.add_columns(tag, steps, values, zeros)
    return StoreRun(finish_table(builder, "TensorBoard event file"))
