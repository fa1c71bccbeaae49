"""Required literals of a regex, so a scan can use fast literal search.

Python's `re` searches a pure literal at GB/s but a big alternation at ~10 MB/s.
So the scanner looks for literals in a lowercased chunk and tests the real regex
only on the few lines that contain one. A branch with no literal makes the
caller fall back to the (slow, correct) full regex.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

_PARSER: Any = importlib.import_module("re._parser")
_LITERAL = _PARSER.LITERAL
_SUBPATTERN = _PARSER.SUBPATTERN
_BRANCH = _PARSER.BRANCH
MIN_LITERAL = 2
# The requirements of every knowledge-base and analyzer regex, computed at build time
# by scripts/build_kb.py (a test fails while it is stale): parsing hundreds of regexes
# costs more than the rest of a small diagnosis.
TABLE = Path(__file__).parent / "data" / "literals.json"


_REPEATS = (_PARSER.MAX_REPEAT, _PARSER.MIN_REPEAT, getattr(_PARSER, "POSSESSIVE_REPEAT", None))
LiteralSet = frozenset[str]
# Every match holds a literal of each set; the most selective set comes first.
Requirement = tuple[LiteralSet, ...]


def _better(first: LiteralSet | None, second: LiteralSet) -> LiteralSet:
    """The more selective of two any-of sets: longer shortest literal, then fewer."""
    if first is None:
        return second
    return first if _selectivity(first) >= _selectivity(second) else second


def _selectivity(group: LiteralSet) -> tuple[int, int]:
    return min(map(len, group)), -len(group)


def _sets(items: Any) -> list[LiteralSet]:
    """The any-of sets a match of this sequence must each hold a literal of."""
    found: list[LiteralSet] = []
    run = ""
    for op, value in [*items, (None, None)]:
        if op is _LITERAL:
            run += chr(value)
            continue
        if len(run) >= MIN_LITERAL:
            found.append(frozenset({run}))
        run = ""
        if op is _SUBPATTERN:
            found += _sets(value[-1])
        elif op is _BRANCH:
            if (union := _union(value[1])) is not None:
                found.append(union)
        elif op in _REPEATS and value[0] >= 1:
            found += _sets(value[2])
    return found


def _best_first(sets: list[LiteralSet]) -> Requirement | None:
    """The sets with the most selective one first (duplicates are dropped by the caller)."""
    best: LiteralSet | None = None
    for group in sets:
        best = _better(best, group)
    if best is None:
        return None
    return (best, *(group for group in sets if group != best))


def _union(alternatives: Any) -> LiteralSet | None:
    """One literal of the union is in any match: each alternative's best set, joined."""
    found: set[str] = set()
    for alternative in alternatives:
        required = _best_first(_sets(alternative))
        if required is None:
            return None
        found |= required[0]
    return frozenset(found)


def _lowered(group: LiteralSet) -> LiteralSet:
    return frozenset("".join(c.lower() if c.isascii() else c for c in lit) for lit in group)


def requirement(pattern: str, flags: int) -> Requirement | None:
    """Lowercased literal sets for a regex, or None when it has none (or fails)."""
    try:
        parsed = _PARSER.parse(pattern, flags)
    except Exception:  # an internal parser change must not break reading logs
        return None
    found = _best_first(_sets(list(parsed)))
    return None if found is None else tuple(dict.fromkeys(map(_lowered, found)))


def requirements(regexes: Sequence[str], flags: int = 0) -> dict[str, Requirement | None]:
    """`requirement` of each regex: from the build-time table, computed for any other."""
    known = _table() if flags == 0 else {}
    return {r: known[r] if r in known else requirement(r, flags) for r in regexes}


def table_text(regexes: Sequence[str]) -> str:
    """The build-time table for these regexes (flags 0), as scripts/build_kb.py writes it."""
    found = {r: requirement(r, 0) for r in dict.fromkeys(regexes)}
    rows = {
        r: None if req is None else [sorted(group) for group in req] for r, req in found.items()
    }
    return json.dumps(rows, ensure_ascii=False, indent=0, sort_keys=True)


@cache
def _table() -> dict[str, Requirement | None]:
    try:
        rows = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a missing table only costs time
        return {}
    return {
        r: None if req is None else tuple(frozenset(group) for group in req)
        for r, req in rows.items()
    }


@cache
def compiled(regex: str, flags: int = 0) -> re.Pattern[str]:
    """A regex compiled on first use; most signatures never meet a line holding
    their literals, so they are never compiled at all."""
    return re.compile(regex, flags)
