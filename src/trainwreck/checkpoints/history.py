"""The first step whose training loss or gradient norm was not finite, from the run's history.

The history is read with the `curves` readers: every checkpoint's `trainer_state.json`
(its `log_history` holds every step logged up to that save, NaNs included when the
Trainer's NaN filter is off), and metric files under the directory (JSONL, Lightning's
`metrics.csv`). The onset is found as `curves.nonfinite` finds it, on the two metrics
whose order says where a NaN was born: the loss and the gradient norm.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from trainwreck.checkpoints.find import TRAINER_STATE, read_state
from trainwreck.checkpoints.model import BadStep
from trainwreck.curves.nonfinite import first_non_finite
from trainwreck.curves.readers import read_text, read_trainer_state
from trainwreck.curves.refs import fmt
from trainwreck.limits import MAX_METRICS_TEXT_BYTES
from trainwreck.model import MetricTable

WATCHED = ("loss", "grad_norm")
_METRIC_FILES = (".jsonl", "metrics.csv")


def _metric_files(directory: str) -> Iterator[str]:
    """JSONL files and Lightning CSV logs under the directory, in name order."""
    for folder, subfolders, names in os.walk(directory):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        for name in sorted(names):
            if name.endswith(_METRIC_FILES) or name == TRAINER_STATE:
                yield os.path.join(folder, name)


def _table(path: str) -> MetricTable | None:
    """One metric file as a table; None when it holds no metric or cannot be read."""
    if os.path.basename(path) == TRAINER_STATE:
        state = read_state(path)
        table = read_trainer_state(path, state) if state is not None else None
        return table if isinstance(table, MetricTable) else None
    try:
        if os.path.getsize(path) > MAX_METRICS_TEXT_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as handle:
            table = read_text(path, handle.read())
    except OSError:
        return None
    return table if isinstance(table, MetricTable) else None


def _where(source: str, line: int) -> str:
    """A point's place: a trainer_state.json's log_history entry, else a file's line."""
    if os.path.basename(source) == TRAINER_STATE:
        return f"{source} (log_history entry {line})"
    return f"{source}:{line}"


def _onsets(table: MetricTable) -> Iterator[BadStep]:
    for name in WATCHED:
        series = table.series.get(name)
        index = first_non_finite(series) if series is not None else None
        if series is None or index is None:
            continue
        yield BadStep(
            step=int(series.steps[index]),
            metric=name,
            value=fmt(float(series.values[index])),
            source=_where(table.source, int(series.lines[index])),
            last_finite_step=int(series.steps[index - 1]) if index else None,
        )


def first_bad_step(directory: str, state_files: Iterable[str]) -> BadStep | None:
    """The earliest non-finite loss or gradient norm any history under `directory` logged."""
    paths = dict.fromkeys([*state_files, *_metric_files(directory)])
    onsets = [onset for path in paths if (t := _table(path)) for onset in _onsets(t)]
    return min(onsets, key=lambda o: (o.step, o.metric), default=None)
