"""Required literals of a regex, so a scan can use fast literal search.

Python's `re` searches a pure literal at GB/s but a big alternation at ~10 MB/s.
So the scanner looks for literals in a lowercased chunk and tests the real regex
only on the few lines that contain one. A branch with no literal makes the
caller fall back to the (slow, correct) full regex.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from trainwreck.diskcache import memo

_PARSER: Any = importlib.import_module("re._parser")
_LITERAL = _PARSER.LITERAL
_SUBPATTERN = _PARSER.SUBPATTERN
_BRANCH = _PARSER.BRANCH
MIN_LITERAL = 2


_REPEATS = (_PARSER.MAX_REPEAT, _PARSER.MIN_REPEAT, getattr(_PARSER, "POSSESSIVE_REPEAT", None))
LiteralSet = frozenset[str]


def _better(first: LiteralSet | None, second: LiteralSet | None) -> LiteralSet | None:
    """The more selective of two any-of sets: longer shortest literal, then fewer."""
    if first is None or second is None:
        return first or second
    return first if _selectivity(first) >= _selectivity(second) else second


def _selectivity(group: LiteralSet) -> tuple[int, int]:
    return min(map(len, group)), -len(group)


def _required(items: Any) -> LiteralSet | None:
    """Literals of which every match must contain at least one; None if unknown."""
    best: LiteralSet | None = None
    run = ""
    for op, value in [*items, (None, None)]:
        if op is _LITERAL:
            run += chr(value)
            continue
        if len(run) >= MIN_LITERAL:
            best = _better(best, frozenset({run}))
        run = ""
        if op is _SUBPATTERN:
            best = _better(best, _required(value[-1]))
        elif op is _BRANCH:
            best = _better(best, _union(value[1]))
        elif op in _REPEATS and value[0] >= 1:
            best = _better(best, _required(value[2]))
    return best


def _union(alternatives: Any) -> LiteralSet | None:
    found: set[str] = set()
    for alternative in alternatives:
        literals = _required(alternative)
        if literals is None:
            return None
        found |= literals
    return frozenset(found)


def required_set(pattern: str, flags: int) -> LiteralSet | None:
    """Lowercased any-of literals for a regex, or None when it has none (or fails)."""
    try:
        parsed = _PARSER.parse(pattern, flags)
    except Exception:  # an internal parser change must not break reading logs
        return None
    found = _required(list(parsed))
    if found is None:
        return None
    return frozenset("".join(c.lower() if c.isascii() else c for c in lit) for lit in found)


def required_sets(regexes: Sequence[str], flags: int = 0) -> dict[str, LiteralSet | None]:
    """`required_set` of each regex, memoised on disk: parsing hundreds of
    knowledge-base regexes costs more than the rest of a small diagnosis."""
    key = f"{flags}\0".encode() + "\0".join(regexes).encode("utf-8", "surrogatepass")
    return memo("literals", key, lambda: {regex: required_set(regex, flags) for regex in regexes})


@cache
def compiled(regex: str, flags: int = 0) -> re.Pattern[str]:
    """A regex compiled on first use; most signatures never meet a line holding
    their literals, so they are never compiled at all."""
    return re.compile(regex, flags)
