"""What makes a line interesting, found in one pass over a chunk.

Python's `re` runs a large alternation (the knowledge base's signatures) at
2-20 MB/s. So each signature branch is reduced to literals that any match must
contain (`literals.py`), and one Aho-Corasick automaton finds all of them,
together with the generic error words, in a single pass over the lowercased
chunk. The real regex then runs only on the lines that hold a signature literal.
A literal on most lines (`loss`) has its lines sampled evenly instead: a curve
keeps its shape at bounded cost, and a rarer literal on the same lines
(`minimum loss scale reached`) is still checked on every line that holds it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

from ahocorasick_rs import BytesAhoCorasick, Implementation

from trainwreck.evidence._text import decode_line
from trainwreck.evidence.literals import compiled, requirements
from trainwreck.redact.terminal import strip_sequences

# Lowercase literals that make a line interesting.
GENERIC_LITERALS: tuple[bytes, ...] = (
    b'file "', b"error", b"exception", b"warn", b"fatal", b"killed", b"exit", b"signal",
    b"segmentation", b"fail", b"most recent call", b"local_rank", b"timeout", b"abort",
)  # fmt: skip
# Words that count only standing alone: nan/inf as values, not inside "info" or "nano".
BOUNDED_WORDS: tuple[bytes, ...] = (b"nan", b"inf")
_GENERIC_TEXT = tuple(literal.decode() for literal in GENERIC_LITERALS)
# A bounded word inside a literal, with letters of the literal on neither side of it.
_STANDALONE = re.compile(f"(?<=[^a-z])(?:{'|'.join(w.decode() for w in BOUNDED_WORDS)})(?=[^a-z])")

Branches = tuple[str, ...]


# The automaton's layout. A DFA searches no faster here (54.8 vs 54.3 MB/s over a 32 MB
# training log's 2 million literal hits, measured 2026-12-06 with the 1,618 literals of
# the bundled KB) but costs 36 ms to build against 2.6 ms, and every run builds it, so the
# contiguous NFA saves that on each diagnose, most of all on short inputs.
AUTOMATON = Implementation.ContiguousNFA


@dataclass(frozen=True)
class Matcher:
    """How a scan finds interesting lines.

    The automaton's patterns are one signature literal per entry of `branches`
    (the signature branches that need it), then GENERIC_LITERALS, then BOUNDED_WORDS.
    """

    automaton: BytesAhoCorasick
    branches: tuple[Branches, ...] = ()
    full_scans: tuple[re.Pattern[bytes], ...] = ()  # branches with no usable literal

    @property
    def first_bounded(self) -> int:
        return len(self.branches) + len(GENERIC_LITERALS)


@dataclass(frozen=True)
class Hits:
    """Starts of the interesting lines of a chunk (sampled ones are not in kept)."""

    kept: set[int]
    sampled: set[int]


def find_hits(matcher: Matcher, chunk: bytes, quota: int) -> Hits:
    """Lines worth keeping; a signature literal on more than `quota` lines is sampled."""
    lines = _literal_lines(matcher, chunk.lower())
    kept = set(chain.from_iterable(lines[len(matcher.branches) :]))
    for full in matcher.full_scans:
        kept.update(chunk.rfind(b"\n", 0, m.start()) + 1 for m in full.finditer(chunk))
    sampled: set[int] = set()
    for found, branches in zip(lines, matcher.branches, strict=False):
        starts = list(dict.fromkeys(found))
        dense = len(starts) > quota
        if dense:
            starts = starts[:: -(-len(starts) // quota)]
        found_lines = sampled if dense else kept
        verdicts: dict[bytes, bool] = {}  # a warning repeated each step is checked once
        for start in starts:  # a line kept or sampled already needs no second look
            if start in kept or start in found_lines:
                continue
            end = chunk.find(b"\n", start)
            line = chunk[start : len(chunk) if end < 0 else end]
            if line not in verdicts:
                verdicts[line] = _matches(line, branches)
            if verdicts[line]:
                found_lines.add(start)
    return Hits(kept, sampled - kept)


def _literal_lines(matcher: Matcher, lower: bytes) -> list[list[int]]:
    """The one automaton pass: per pattern, the starts of the lines that hold it.

    A bounded word counts only with no letter next to it. Matches come in order
    of their end and no pattern holds a newline, so each list is ascending, and a
    line's bounds are looked up once, at its first match.
    """
    lines: list[list[int]] = [[] for _ in range(matcher.first_bounded + len(BOUNDED_WORDS))]
    first_bounded = matcher.first_bounded
    line_start = line_end = -1
    for index, start, end in matcher.automaton.find_matches_as_indexes(lower, overlapping=True):
        if index >= first_bounded and (
            lower[start - 1 : start].isalpha() or lower[end : end + 1].isalpha()
        ):
            continue  # "inf" in "info"
        if start > line_end:  # a new line (or the unterminated last one, at -1)
            line_start = lower.rfind(b"\n", 0, start) + 1
            line_end = lower.find(b"\n", start)
        lines[index].append(line_start)
    return lines


def _matches(line: bytes, branches: Branches) -> bool:
    """Whether a branch matches the line as a terminal shows it (colour codes removed)."""
    text = strip_sequences(decode_line(line))
    return any(compiled(branch).search(text) for branch in branches)


def _needless(literal: str) -> bool:
    """Whether a literal needs no search: every line holding it is kept anyway, for
    a generic word in it, or no line can hold it (it holds a newline)."""
    return (
        "\n" in literal
        or any(word in literal for word in _GENERIC_TEXT)
        or bool(_STANDALONE.search(literal))
    )


def _signatures(parts: Sequence[str]) -> tuple[dict[str, list[str]], tuple[re.Pattern[bytes], ...]]:
    """Literal -> branches needing it; and full scans for branches with no literal."""
    needed: dict[str, list[str]] = {}
    literal_free: list[str] = []
    for branch, required in requirements(parts).items():
        if required is None:
            literal_free.append(branch)
            continue
        for literal in required[0]:
            if not _needless(literal):
                needed.setdefault(literal, []).append(branch)
        # a branch whose literals are all needless matches only lines kept anyway
    full = (_to_bytes(branch) for branch in literal_free)
    return needed, tuple(pattern for pattern in full if pattern is not None)


def _to_bytes(pattern: str) -> re.Pattern[bytes] | None:
    """The same regex over bytes (ASCII semantics), or None if it cannot be."""
    try:
        return re.compile(pattern.encode("utf-8"), re.M)
    except (re.error, UnicodeEncodeError):
        return None


def build_matcher(parts: Sequence[str] = ()) -> Matcher:
    """Compile the generic words and the caller's regexes into one automaton.

    `parts` are self-contained alternatives (see `KnowledgeBase.keep_parts`): a
    line is interesting when any of them matches it.
    """
    needed, full_scans = _signatures(parts)
    patterns = [*(lit.encode("utf-8") for lit in needed), *GENERIC_LITERALS, *BOUNDED_WORDS]
    automaton = BytesAhoCorasick(patterns, implementation=AUTOMATON)
    branches = tuple(tuple(dict.fromkeys(regexes)) for regexes in needed.values())
    return Matcher(automaton, branches, full_scans)
