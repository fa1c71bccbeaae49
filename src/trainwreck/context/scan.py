"""First text a regex matches, found at literal-search speed.

A regex alternation scans text at a few MB/s, a literal at GB/s, and the
context readers look for dozens of names in every retained line of logs of
any size. So a regex runs only on the texts that hold one of its required
literals (found in the lowercased joined texts), first text first.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import cache

from trainwreck.evidence.literals import LiteralSet, Requirement, requirement


@cache
def _required(regex: re.Pattern[str]) -> Requirement | None:
    return requirement(regex.pattern, regex.flags & re.IGNORECASE)


def _positions(lowered: str, literals: LiteralSet) -> Iterator[int]:
    """Where any of the literals occurs in `lowered`, in increasing order."""

    def each(literal: str) -> Iterator[int]:
        position = lowered.find(literal)
        while position != -1:
            yield position
            position = lowered.find(literal, position + 1)

    return heapq.merge(*(each(literal) for literal in literals))


class Texts:
    """Texts searched in order for the first one a regex matches."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = texts
        self.starts: list[int] = []
        offset = 0
        for text in texts:
            self.starts.append(offset)
            offset += len(text) + 1
        self.lowered = "\n".join(texts).lower()

    def first(self, regex: re.Pattern[str]) -> int | None:
        """Index of the first text `regex` matches, or None."""
        required = _required(regex)
        if required is None:
            return next((i for i, text in enumerate(self.texts) if regex.search(text)), None)
        tried: set[int] = set()
        for position in _positions(self.lowered, required[0]):
            index = bisect_right(self.starts, position) - 1
            if index not in tried:
                tried.add(index)
                if regex.search(self.texts[index]):
                    return index
        return None
