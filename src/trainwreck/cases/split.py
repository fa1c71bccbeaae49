"""Each record's evidence lines with their identifying words, split once at build time.

Splitting the bundled store's 4,463 evidence lines into words (`normalize.words`)
took about 59 ms of every diagnosis, and gives the same answer until the store or
the normaliser changes. `scripts/build_kb.py` writes the split to
`data/bundled_words.json`, keyed by a digest of each record's evidence text (so an
edited record misses the table and is split again at run time), and a test fails
while the table is stale; reading it takes about 5 ms.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from trainwreck.cases.normalize import words
from trainwreck.cases.records import CaseRecord

WORDS_TABLE = Path(__file__).parent / "data" / "bundled_words.json"
MIN_LINE_WORDS = 2  # a line of one identifying word matches too much to say anything
# A line that only names an exception ("pytorch_lightning.utilities.debugging.
# MisconfigurationException:") says which library refused, not why: a batch-19 Lightning
# monitor-key error recalled a CPU-only-torch record at 0.59 on that line alone.
BARE_EXCEPTION = re.compile(
    r"\s*(?:raise\s+)?[\w.]*(?:Error|Exception|Warning)\b(?:\(\w*\))?\s*:?\s*"
)

Lines = tuple[tuple[str, frozenset[str]], ...]


def split_lines(evidence: str) -> Lines:
    """The evidence's lines (stripped) that hold enough identifying words, with those words."""
    split = []
    for raw in evidence.splitlines():
        if BARE_EXCEPTION.fullmatch(raw):
            continue
        line_words = words(raw)
        if len(line_words) >= MIN_LINE_WORDS:
            split.append((raw.strip(), line_words))
    return tuple(split)


def _digest(evidence: str) -> str:
    return hashlib.sha256(evidence.encode("utf-8")).hexdigest()[:20]


def dump_table(records: Iterable[CaseRecord]) -> str:
    """The table's text: evidence digest -> [[line, [word, ...]], ...], in a fixed order."""
    table = {
        _digest(record.evidence): [
            [line, sorted(found)] for line, found in split_lines(record.evidence)
        ]
        for record in records
    }
    return json.dumps(dict(sorted(table.items())), ensure_ascii=False, indent=0) + "\n"


@cache
def _table() -> dict[str, Lines]:
    try:
        data = json.loads(WORDS_TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a checkout without the table still works, only slower
    return {
        key: tuple((line, frozenset(found)) for line, found in lines) for key, lines in data.items()
    }


def lines_of(evidence: str) -> Lines:
    """A record's split lines: from the build-time table when it holds this text, else split now."""
    known = _table().get(_digest(evidence))
    return split_lines(evidence) if known is None else known
