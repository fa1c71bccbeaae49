"""Rows of key -> value (JSON objects, CSV records) -> one column per metric.

Vectorised: a whole column goes to NumPy at once; only a column holding
strings that are not numbers is converted value by value, and those values are
counted as unreadable rather than read as NaN (a NaN is a real event).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import is_not, itemgetter
from typing import cast

import numpy as np
from numpy.typing import NDArray

from trainwreck.curves.names import STEP_KEYS, TIME_KEYS, canonical
from trainwreck.curves.table import WALL, TableBuilder

Row = dict[str, object]
FloatColumn = tuple[NDArray[np.float64], NDArray[np.bool_]]
_SKIP_SUFFIXES = ("__min", "__max", "_runtime_per_sample")
# A step past this is no step a run took (2**53: the last integer a float64 holds
# exactly); NaN, inf and 1e300 would otherwise become garbage int64 steps.
MAX_STEP = float(2**53)


def clean_key(key: str) -> str:
    """W&B exports name columns `run-name - train/loss`; keep the metric part."""
    return key.rsplit(" - ", 1)[-1].strip()


def _one(value: object) -> float:
    if value is None or isinstance(value, list | dict):
        return math.nan
    try:
        return float(str(value).lower().replace("infinity", "inf"))
    except (ValueError, OverflowError):  # str() of an int past 4,300 digits raises
        return math.nan


def _is_number(value: object) -> bool:
    """True for numbers and number strings (including "nan"); False for None, "", words."""
    if value is None or isinstance(value, list | dict):
        return False
    if isinstance(value, int | float):
        return True
    text = str(value).strip().lower()
    return text in {"nan", "-nan", "+nan"} or not math.isnan(_one(text)) if text else False


def to_floats(column: Sequence[object]) -> FloatColumn:
    """Values and a mask of which were present and numeric (None/"" are absent)."""
    count = len(column)
    try:
        values = np.array(column, dtype=np.float64)
    except (ValueError, TypeError, OverflowError):  # an int of 400 digits overflows
        values = np.array([_one(value) for value in column], dtype=np.float64)
        return values, np.fromiter((_is_number(v) for v in column), bool, count)
    if not np.isnan(values).any() or (isinstance(column, list) and None not in column):
        return values, np.ones(count, dtype=bool)
    # Every value converted, so a NaN is either a real NaN or a missing (None) value.
    return values, np.fromiter(map(is_not, column, repeat(None)), bool, count)


def strings_to_floats(column: Sequence[str]) -> FloatColumn:
    """A CSV column: empty cells are absent; the rest parse in one NumPy call."""
    text = np.asarray(column, dtype=str)
    present = np.char.str_len(np.char.strip(text)) > 0
    values = np.full(text.shape[0], np.nan)
    try:
        values[present] = text[present].astype(np.float64)
    except ValueError:
        return to_floats(list(column))
    return values, present


def _step_column(keys: Sequence[str]) -> str | None:
    lowered = {key.lower(): key for key in keys}
    return next((lowered[k] for k in STEP_KEYS if k in lowered), None)


def _wanted(key: str) -> bool:
    return not clean_key(key).lower().endswith(_SKIP_SUFFIXES)


def add_columns(
    builder: TableBuilder,
    columns: Mapping[str, FloatColumn],
    lines: NDArray[np.int64],
) -> None:
    """Add each metric column of equal-length `columns` to the builder."""
    step_key = _step_column(list(columns))
    if step_key is None:
        steps = np.arange(1, lines.shape[0] + 1, dtype=np.int64)
        builder.info["step_unit"] = "row (the file has no step column)"
    else:
        step_values, step_present = columns[step_key]
        readable = step_present & (np.abs(step_values) <= MAX_STEP)  # False for NaN and inf
        steps = np.where(readable, step_values, -1).astype(np.int64)
    has_step = steps >= 0
    time_key = next((k for k in columns if k.lower() in TIME_KEYS), None)
    for key, (values, present) in columns.items():
        if key == step_key:
            continue
        keep = present & has_step
        name = WALL if key == time_key else canonical(clean_key(key))
        if keep.all():  # the common case: no copy
            builder.add_columns(name, steps, values, lines)
        elif keep.any():
            builder.add_columns(name, steps[keep], values[keep], lines[keep])
    unread = int(lines.shape[0] - np.count_nonzero(has_step))
    if unread:
        builder.notes.append(f"{unread} row(s) without a readable step were skipped")


def text_columns(header: Sequence[str], records: Sequence[Sequence[str]]) -> dict[str, FloatColumn]:
    """CSV records (all of the header's length) -> one float column per wanted header key."""
    return {
        key: strings_to_floats([record[index] for record in records])
        for index, key in enumerate(header)
        if _wanted(key)
    }


def row_columns(rows: Sequence[Row]) -> dict[str, FloatColumn]:
    """JSON objects -> one float column per wanted key, absent where a row lacks the key."""
    keys: dict[str, None] = {}
    for row in rows[:1000]:
        keys.update(dict.fromkeys(row))
    if len(rows) > 1000:
        keys.update(dict.fromkeys(sorted(set().union(*rows).difference(keys))))
    return {key: _row_floats(rows, key) for key in keys if _wanted(key)}


def _row_floats(rows: Sequence[Row], key: str) -> FloatColumn:
    try:  # a key every row holds a number for (the common case) converts at C speed
        values = np.fromiter(map(itemgetter(key), rows), np.float64, len(rows))
    except (KeyError, TypeError, ValueError, OverflowError):
        column = list(map(dict.get, rows, repeat(key)))
        if column and all(isinstance(v, str) for v in column[:100]):
            return strings_to_floats(cast(Sequence[str], column))
        return to_floats(column)
    return values, np.ones(len(rows), dtype=bool)
