"""Metric text files -> MetricTable: trainer_state.json, JSONL, JSON, CSV, training logs.

Readers never raise on bad input: what cannot be read is a Gap with a one-line
reason, and a file that is partly broken (a truncated last line from a killed
process, strings where numbers belong) is read as far as it goes, with a note.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import cast

import numpy as np

from trainwreck.curves.columns import Row, add_columns, row_columns, text_columns
from trainwreck.curves.jsonload import loads, loads_lines
from trainwreck.curves.table import TableBuilder
from trainwreck.curves.textlog import read_lines
from trainwreck.limits import MAX_FIELD_CHARS
from trainwreck.model import Gap, MetricTable

_STATE_INFO = (
    "global_step",
    "max_steps",
    "num_train_epochs",
    "train_batch_size",
    "logging_steps",
    "eval_steps",
    "epoch",
)
_PIECE_CHARS = 1 << 24  # JSONL is parsed this much at a time, so memory stays bounded


def finish_table(builder: TableBuilder, what: str) -> MetricTable | Gap:
    """The built table, or a Gap when the source held no numeric metric."""
    table = builder.build()
    if not table.series:
        return Gap(source=builder.source, reason=f"no numeric metric found in this {what}")
    return table


def _add_rows(builder: TableBuilder, rows: Sequence[Row], lines: Sequence[int]) -> None:
    if rows:
        numbers = (
            np.arange(lines.start, lines.stop, dtype=np.int64)
            if isinstance(lines, range)
            else np.asarray(lines, dtype=np.int64)
        )
        add_columns(builder, row_columns(rows), numbers)


def _rows_builder(source: str, rows: Sequence[Row], lines: Sequence[int]) -> TableBuilder:
    builder = TableBuilder(source)
    _add_rows(builder, rows, lines)
    return builder


def read_trainer_state(source: str, data: Mapping[str, object]) -> MetricTable | Gap:
    """HF `trainer_state.json`: log_history rows plus the run facts beside them."""
    history = data.get("log_history")
    rows = [row for row in history if isinstance(row, dict)] if isinstance(history, list) else []
    builder = _rows_builder(source, rows, range(1, len(rows) + 1))
    for key in _STATE_INFO:
        value = data.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            builder.info[key] = value
    return finish_table(builder, "trainer_state.json")


def _non_blank(text: str) -> tuple[list[int], list[str]]:
    """The non-blank lines and their line numbers."""
    lines = text.split("\n")
    while lines and not lines[-1]:  # the final newline (no copy of a large file's text)
        lines.pop()
    if "\n\n" in text.rstrip("\n") or any(not line.strip() for line in lines[-1:]):
        numbers = [i for i, line in enumerate(lines, start=1) if line.strip()]
        return numbers, [lines[i - 1] for i in numbers]
    return list(range(1, len(lines) + 1)), lines


def _json_lines(numbers: list[int], body: list[str]) -> tuple[list[object], list[int]]:
    """The lines parsed, and the numbers of those that parsed."""
    # One parse of the whole file is several times faster than one per line; a process
    # killed mid-write leaves a truncated last line, so the file without it is tried next.
    for whole in (len(body), len(body) - 1):
        try:
            parsed = loads("[" + ",".join(body[:whole]) + "]")
        except (ValueError, RecursionError):
            continue
        if len(cast(list[object], parsed)) == whole:  # not when a line held two values
            return _with_rest(cast(list[object], parsed), numbers, body, whole)
    return _with_rest([], numbers, body, 0)


def _with_rest(
    rows: list[object], numbers: list[int], body: list[str], start: int
) -> tuple[list[object], list[int]]:
    """`rows` parsed from body[:start]; the lines from `start` on parsed one at a time."""
    kept = numbers[:start]
    for number, line in zip(numbers[start:], body[start:], strict=True):
        try:
            rows.append(loads(line))
            kept.append(number)
        except (ValueError, RecursionError):
            continue
    return rows, kept


def _pieces(text: str) -> Iterator[tuple[int, str]]:
    """(number of its first line, text) slices of about _PIECE_CHARS, each cut after a newline."""
    start, line = 0, 1
    while start < len(text):
        stop = text.find("\n", start + _PIECE_CHARS)
        stop = len(text) if stop < 0 else stop + 1
        piece = text[start:stop]
        yield line, piece
        line += piece.count("\n")
        start = stop


def _jsonl_piece(first: int, piece: str) -> tuple[list[object], Sequence[int], int]:
    """The values of one piece's lines, their line numbers, and how many non-blank lines it has."""
    parsed = loads_lines(piece) if len(piece) <= 2 * _PIECE_CHARS else None
    if parsed is not None:
        return parsed, range(first, first + len(parsed)), len(parsed)
    numbers, body = _non_blank(piece)
    if len(piece) > 2 * _PIECE_CHARS:  # a line past _PIECE_CHARS: drop those past the limit
        body = [line if len(line) <= MAX_FIELD_CHARS else "" for line in body]
    rows, kept = _json_lines(numbers, body)
    return rows, [number + first - 1 for number in kept], len(body)


def read_jsonl(source: str, text: str) -> MetricTable | Gap:
    """One JSON object per line; bad lines (a truncated last line) are skipped and counted.

    Read in pieces, so a file of hundreds of MB never holds more than one piece's
    parsed objects at a time: the columns built from them are far smaller.
    """
    builder, skipped = TableBuilder(source), 0
    for first, piece in _pieces(text):
        rows, kept, total = _jsonl_piece(first, piece)
        if set(map(type, rows)) != {dict}:
            pairs = [(row, n) for row, n in zip(rows, kept, strict=True) if isinstance(row, dict)]
            rows, kept = [row for row, _ in pairs], [n for _, n in pairs]
        _add_rows(builder, cast(list[Row], rows), kept)
        skipped += total - len(rows)
    if skipped:
        builder.notes.append(f"{skipped} line(s) were not JSON objects; skipped")
    return finish_table(builder, "JSONL file")


def _csv_records(text: str, delimiter: str) -> list[list[str]]:
    """One record per line; a line past MAX_FIELD_CHARS, or one the csv module refuses
    (an unclosed quote running past its field limit), is an empty record, so it is
    skipped as a wrong field count and later lines keep their numbers."""
    lines = [line if len(line) <= MAX_FIELD_CHARS else "" for line in text.splitlines()]
    reader = csv.reader(lines, delimiter=delimiter)
    records: list[list[str]] = []
    while True:
        try:
            records.append(next(reader))
        except StopIteration:
            return records
        except csv.Error:
            records.append([])


def read_csv(source: str, text: str) -> MetricTable | Gap:
    """CSV with a header row: Lightning's CSVLogger, W&B exports, a user's own file."""
    first = text.split("\n", 1)[0]
    delimiter = "\t" if first.count("\t") > first.count(",") else ","
    records = _csv_records(text, delimiter)
    if len(records) < 2:
        return Gap(source=source, reason="CSV file has no data rows")
    header, body = records[0], records[1:]
    good = [(row, n) for n, row in enumerate(body, start=2) if len(row) == len(header)]
    builder = TableBuilder(source)
    if good:
        columns = text_columns(header, [row for row, _ in good])
        add_columns(builder, columns, np.asarray([n for _, n in good], dtype=np.int64))
    if len(good) < len(body):
        builder.notes.append(f"{len(body) - len(good)} row(s) with a wrong field count skipped")
    return finish_table(builder, "CSV file")


def read_json(source: str, text: str) -> MetricTable | Gap:
    """trainer_state.json, or a W&B history export (a list of rows, or {"history": [...]})."""
    try:
        data: object = loads(text)
    except (ValueError, RecursionError):
        return Gap(source=source, reason="not valid JSON")
    if isinstance(data, dict) and "log_history" in data:
        return read_trainer_state(source, data)
    if isinstance(data, dict):
        data = data.get("history", data.get("rows"))
    if not isinstance(data, list):
        return Gap(source=source, reason="JSON holds no list of metric rows")
    rows = [row for row in data if isinstance(row, dict)]
    return finish_table(_rows_builder(source, rows, range(1, len(rows) + 1)), "JSON file")


def read_text(source: str, text: str) -> MetricTable | Gap:
    """Read a metric file by its name (and, for JSON, its content); logs by their lines."""
    name = os.path.basename(source).lower().removesuffix(".gz").removesuffix(".xz")
    if name.endswith((".jsonl", ".ndjson")):
        return read_jsonl(source, text)
    if name.endswith(".json"):
        return read_json(source, text)
    if name.endswith((".csv", ".tsv")):
        return read_csv(source, text)
    table = read_lines(source, enumerate(text.splitlines(), start=1))
    return table if table is not None else Gap(source=source, reason="no metric lines found")
