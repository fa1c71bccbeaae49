"""What makes a line interesting, compiled for speed: literal passes, then regexes.

Python's `re` finds one literal at GB/s but runs a large alternation (the
knowledge base's signatures) at 2-20 MB/s. So each signature branch is reduced
to literals that any match must contain; the scanner searches a lowercased chunk
for those literals and runs the real regex only on the lines that hold one. A
literal that is already one of the generic error words needs no pass at all, and
one that contains another selected literal shares its pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.evidence.literals import required_set, split_branches

# Lowercase literals that make a line interesting; each is searched at GB/s.
GENERIC_LITERALS: tuple[bytes, ...] = (
    b'file "', b"error", b"exception", b"warn", b"fatal", b"killed", b"exit", b"signal",
    b"segmentation", b"fail", b"above exception", b"most recent call", b"local_rank",
    b"timeout", b"abort",
)  # fmt: skip
# Values that need a boundary check (nan/inf as numbers, not inside "info" or "nano").
BOUNDED_WORDS = (re.compile(rb"nan(?![a-z])"), re.compile(rb"inf(?![a-z])"))
_COVERING = (*(literal.decode() for literal in GENERIC_LITERALS), "nan", "inf")


@dataclass(frozen=True)
class LiteralPass:
    """One literal search over a lowercased chunk, and the branches it may satisfy.

    `hosted` are longer literals that contain this one: when this literal is rare
    its candidates cover theirs too, and when it is dense (and sampled) they get
    their own passes so that a rare signature is never sampled away.
    """

    finder: re.Pattern[bytes]
    branches: tuple[re.Pattern[str], ...]
    hosted: tuple[LiteralPass, ...] = ()

    def all_branches(self) -> tuple[re.Pattern[str], ...]:
        found = list(self.branches)
        for inner in self.hosted:
            found.extend(inner.all_branches())
        return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class Matcher:
    """How a scan finds interesting lines."""

    generic: tuple[re.Pattern[bytes], ...]
    passes: tuple[LiteralPass, ...] = ()
    full_scans: tuple[re.Pattern[bytes], ...] = ()  # branches with no usable literal


def _literal_map(keep: re.Pattern[str]) -> tuple[dict[str, list[re.Pattern[str]]], list[str]]:
    """Literal -> branches needing it; and the branches that have no literal."""
    needed: dict[str, list[re.Pattern[str]]] = {}
    literal_free: list[str] = []
    for branch in split_branches(keep.pattern):
        literals = required_set(branch, keep.flags)
        if literals is None:
            literal_free.append(branch)
            continue
        uncovered = [lit for lit in literals if not any(g in lit for g in _COVERING)]
        if not uncovered:
            continue  # every line it can match holds a generic word and is kept anyway
        try:
            compiled = re.compile(branch, keep.flags)
        except re.error:
            literal_free.append(branch)
            continue
        for literal in uncovered:
            needed.setdefault(literal, []).append(compiled)
    return needed, literal_free


def _share_passes(needed: dict[str, list[re.Pattern[str]]]) -> tuple[LiteralPass, ...]:
    """Nest each literal under a shorter one it contains: one search finds both."""
    children: dict[str, list[str]] = {}
    roots: list[str] = []
    for literal in sorted(needed, key=len):
        host = next((short for short in reversed(list(children)) if short in literal), None)
        children[literal] = []
        (children[host] if host is not None else roots).append(literal)

    def build(literal: str) -> LiteralPass:
        return LiteralPass(
            finder=re.compile(re.escape(literal.encode("utf-8"))),
            branches=tuple(dict.fromkeys(needed[literal])),
            hosted=tuple(build(child) for child in children[literal]),
        )

    return tuple(build(root) for root in roots)


def _to_bytes(pattern: str, flags: int) -> re.Pattern[bytes] | None:
    """The same regex over bytes (ASCII semantics), or None if it cannot be."""
    try:
        return re.compile(pattern.encode("utf-8"), (flags & (re.I | re.S | re.X)) | re.M)
    except (re.error, UnicodeEncodeError):
        return None


def build_matcher(keep: re.Pattern[str] | None) -> Matcher:
    """Compile the generic heuristic and the caller's `keep` regex into literal passes."""
    generic = tuple(re.compile(re.escape(literal)) for literal in GENERIC_LITERALS)
    if keep is None:
        return Matcher(generic)
    needed, literal_free = _literal_map(keep)
    passes = _share_passes(needed)
    full = tuple(p for p in (_to_bytes(b, keep.flags) for b in literal_free) if p is not None)
    return Matcher(generic, passes, full)
