"""Where an answer computes, and whether it says where the inputs come from.

A computation is a prose line or a table row outside fenced code (scripts compute, but
are not the answer's arithmetic); a table with formula and value columns reads as
`formula = value`. An input's origin is one of SOURCES on the line; in a table with a
source column only that cell counts, and there TABLE_SOURCES count too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from trainwreck.answer_check.expressions import clean, computes
from trainwreck.report.audit.text import blocks

# What names an input's origin (issue 23's list): kind, and how it is written.
SOURCES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # config.json:num_key_value_heads, ds_config.json, "config.json sizes"
    ("config file or key", re.compile(r"\b[\w.-]+\.(?:json|ya?ml|toml|cfg|ini)\b")),
    # `num_key_value_heads`, `TrainingArguments.optim`, (max_model_len), from head_dim, key=4
    (
        "named setting",
        re.compile(
            r"`[A-Za-z_]\w*(?:[._]\w+)+|(?:\(|\bfrom )[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
            r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s*[=:]\s*\d"
        ),
    ),
    ("file:line", re.compile(r"\b[\w./-]+\.[A-Za-z]\w*:\d+\b")),  # train.log:2
    # [kb:id], [case:id] (a confirmed case record: its thread or reproduction), a URL
    ("cited page", re.compile(r"(?i)https?://|\b(?:kb|case):[\w-]+|\barxiv\b")),
    (
        "the run's own output",  # from the error, evidence: fp16, setup: ..., logged
        re.compile(
            r"(?i)\bfrom the (?:error|log|logs|oom message|message|traceback|output|run)\b"
            r"|\b(?:evidence|setup|measured|logged|printed)\b"
        ),
    ),
    ("command-line flag", re.compile(r"(?<![\w-])--[a-z][\w-]+")),  # --max-model-len 32768
    (
        "labelled assumption",  # [assumed] 1 (default), assuming bf16
        re.compile(r"(?i)\[(?:assumed|inferred)\]|\bassum(?:e|ed|ing|ption)\b|\(default\)"),
    ),
    # a log quote: quoted text (" “ `) of 12 characters or more, itself no arithmetic (_quoted)
)
TABLE_SOURCES = re.compile(r"(?i)\b(?:computed|derived|proposed|inferred)\b")
_QUOTE = re.compile(r'"([^"]{12,})"|“([^”]{12,})”|`([^`]{12,})`')

_ROW = re.compile(r"^\s*\|")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_CELL = re.compile(r"(?<!\\)\|")
FORMULA_COLUMNS = ("formula", "computation", "calculation", "expression", "arithmetic")
VALUE_COLUMNS = ("value", "amount", "result", "total", "size")
SOURCE_COLUMNS = ("source", "sources", "inputs from", "origin", "from", "provenance")


@dataclass(frozen=True)
class Statement:
    """A prose line or a table row, ready to check."""

    line: int
    text: str  # what expressions are read from
    sources: str  # where the origins of its inputs are looked for
    raw: str  # the line as written, for the words that say what it computes
    row: bool = False


def _fenced(numbered: Sequence[tuple[int, str]]) -> set[int]:
    """Line numbers inside fenced code (scripts compute, but are not the answer's arithmetic)."""
    inside: set[int] = set()
    for block in blocks("\n".join(text for _, text in numbered)):
        closing = block.line + block.text.count("\n") + 2
        inside |= {numbered[at - 1][0] for at in range(block.line, min(closing, len(numbered)) + 1)}
    return inside


def statements(lines: Sequence[tuple[int, str]]) -> Iterator[Statement]:
    numbered, header = list(lines), list[str]()
    fenced = _fenced(numbered)
    for at, (number, line) in enumerate(numbered):
        if number in fenced or not _ROW.match(line):
            header = []
            if number not in fenced:
                yield Statement(number, clean(line), line, line)
            continue
        cells = [cell.strip() for cell in _CELL.split(line.strip())][1:]
        cells = cells[:-1] if cells and not cells[-1] else cells
        following = numbered[at + 1][1] if at + 1 < len(numbered) else ""
        if _SEPARATOR.match(following):
            header = [cell.strip("`*_ ").lower() for cell in cells]
        elif not _SEPARATOR.match(line):
            yield _row(number, line, cells, header)


def _row(number: int, line: str, cells: list[str], header: list[str]) -> Statement:
    """A table row; with formula and value columns it reads as `formula = value`."""

    def column(names: tuple[str, ...]) -> str | None:
        at = next((n for n, name in enumerate(header) if name in names), None)
        return cells[at] if at is not None and at < len(cells) else None

    formula, value, source = map(column, (FORMULA_COLUMNS, VALUE_COLUMNS, SOURCE_COLUMNS))
    text = f"{formula} = {value}" if formula and value else " | ".join(cells)
    return Statement(number, clean(text), line if source is None else source, line, row=True)


def sourced(statement: Statement) -> bool:
    if any(pattern.search(statement.sources) for _, pattern in SOURCES):
        return True
    if statement.row and TABLE_SOURCES.search(statement.sources):
        return True
    quotes = (next(filter(None, match.groups())) for match in _QUOTE.finditer(statement.sources))
    return any("=" not in quote and not computes(quote) for quote in quotes)
