"""A Markdown diagnosis -> the parts the rules read: claims, confidence, changes, blocks, items.

What counts as each part, whoever wrote the answer:
- claims: each paragraph or item of the root-cause and mechanism regions, and each fix
  step (the fix region's list items, or its paragraphs when it has no list);
- a change: `` `key`: `before` → `after` `` (`->` too, values with or without backticks),
  or `from X to Y`; a key set without a before value (`set `key` to X`, `` `key` → X``,
  `` - `key`: `X` ``) is a change with no before;
- evidence quotes: the last code span of each evidence item, blockquotes, fenced lines;
- alternatives: the alternatives region's items, each with the cost its check states, the
  confidence it states and the score it shows (`score 0.61`, as our reports write it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.answer_check.items import Item, code_spans, items
from trainwreck.answer_check.sections import Kind, Region, regions
from trainwreck.kb.schema import COST_ORDER
from trainwreck.report.audit.text import Block
from trainwreck.report.values import UNVERIFIED

KB_PAGE = re.compile(r"\[kb:(?P<page>[a-z0-9]+(?:-[a-z0-9]+)*)\]")
CITATION = re.compile(r"\[kb:[a-z0-9-]+\]|\[no KB\]|https?://\S", re.IGNORECASE)
_LEVEL = re.compile(r"\b(high|medium|low)\b", re.IGNORECASE)
_STATED_LEVEL = re.compile(r"\b(high|medium|low) confidence\b", re.IGNORECASE)
_KEY = r"`(?P<path>[A-Za-z_-][^`]*)`"
_VALUE = r"(?:`[^`]*`|[^\s`→,;:]+)"
_ARROW = r"(?:→|->|=>|⟶)"
_FULL = re.compile(
    rf"{_KEY}\s*[:=]?\s*(?P<before>{_VALUE})\s*{_ARROW}\s*(?P<after>{_VALUE})"
    rf"|{_KEY.replace('path', 'path2')}\s*:?\s*from\s+(?P<before2>{_VALUE})"
    rf"\s+to\s+(?P<after2>{_VALUE})"
)
_NO_BEFORE = re.compile(
    rf"^\s*(?:[-*+]|\d+[.)])?\s*{_KEY}\s*:?\s*{_ARROW}\s*(?P<after>{_VALUE})"
    rf"|\b(?:[Ss]et|[Cc]hange)\s+{_KEY.replace('path', 'path2')}\s+(?:to|=)\s+(?P<after2>{_VALUE})"
    rf"|^\s*[-*]\s+{_KEY.replace('path', 'path3')}\s*[:=]\s*(?P<after3>`[^`]*`)\s*$"
)
# A value that stands for "not known": no before value was given.
_MISSING = frozenset({"", "?", "...", "…", "current", "<current>", "unknown"})
_COST = re.compile(
    r"\bcosts?\b\W{0,3}(?:about |roughly |a few |one |an? )?(seconds?|minutes?|hours?|runs?|days?)",
    re.IGNORECASE,
)
# Check costs as the KB words them (kb.schema.COST_ORDER); a check of days is a run's cost.
_COST_WORDS = {
    "second": "seconds",
    "minute": "minutes",
    "hour": "hours",
    "run": "run",
    "day": "run",
}
# A shown score, in parentheses as the report writes it: "(Medium confidence, score 0.61)".
_SCORE = re.compile(r"\([^()]*\bscore:?\s*(?P<score>[01]?\.\d+|[01])\s*\)", re.IGNORECASE)
_VERSION = re.compile(
    r"(?P<name>[A-Za-z][\w.-]*)\s*(?:==|=|:|\s)\s*`?v?(?P<version>\d+(?:\.\d+)+[\w.+-]*)`?"
)


@dataclass(frozen=True)
class Claim:
    line: int
    text: str
    where: Kind


@dataclass(frozen=True)
class Change:
    line: int
    path: str
    before: str | None
    after: str | None
    unverified: bool  # the answer itself marks the key unverified


@dataclass(frozen=True)
class FixStep:
    line: int
    text: str
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class Alternative:
    line: int
    text: str
    cost: str | None  # a key of kb.schema.COST_ORDER
    confidence: str | None  # "high", "medium", "low": the level the item states
    score: float | None  # the score the item shows, 0-1


@dataclass(frozen=True)
class Answer:
    """The parts of one answer the rules read, each with its line."""

    text: str
    regions: tuple[Region, ...]
    confidence: tuple[str, int] | None  # ("high", line)
    claims: tuple[Claim, ...]
    fixes: tuple[FixStep, ...]
    quotes: tuple[tuple[int, str], ...]
    alternatives: tuple[Alternative, ...]
    guards: tuple[tuple[int, str], ...]
    versions: dict[str, str]

    def of(self, *kinds: Kind) -> tuple[Region, ...]:
        return tuple(region for region in self.regions if region.kind in kinds)

    def blocks_of(self, *kinds: Kind) -> tuple[Block, ...]:
        return tuple(block for region in self.of(*kinds) for block in region.blocks)

    @property
    def numbered_lines(self) -> tuple[tuple[int, str], ...]:
        return tuple(enumerate(self.text.splitlines(), start=1))


def _strip(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip().strip("`").strip()
    return None if value.lower() in _MISSING else value


def changes_in(number: int, text: str) -> list[Change]:
    """The key changes one line states, with or without a before value."""
    unverified = UNVERIFIED in text
    full = [
        Change(
            number,
            m["path"] or m["path2"],
            _strip(m["before"] or m["before2"]),
            _strip(m["after"] or m["after2"]),
            unverified,
        )
        for m in _FULL.finditer(text)
    ]
    if full:
        return full
    return [
        Change(
            number,
            m["path"] or m["path2"] or m["path3"],
            None,
            _strip(m["after"] or m["after2"] or m["after3"]),
            unverified,
        )
        for m in _NO_BEFORE.finditer(text)
    ]


def _confidence(found: tuple[Region, ...]) -> tuple[str, int] | None:
    for region in found:
        if region.kind == "confidence":
            for line in region.prose():
                match = _LEVEL.search(line.text)
                if match:
                    return match.group(1).lower(), line.number
    for region in found:
        for line in region.prose():
            match = _STATED_LEVEL.search(line.text)
            if match:
                return match.group(1).lower(), line.number
    return None


def _claims(found: tuple[Region, ...]) -> list[Claim]:
    return [
        Claim(item.line, item.words, region.kind)
        for region in found
        if region.kind in ("root_cause", "mechanism")
        for item in items(region)
    ]


def _fix_items(region: Region) -> list[Item]:
    found = items(region)
    listed = [item for item in found if item.listed]
    return listed or found


def _fixes(found: tuple[Region, ...]) -> list[FixStep]:
    steps = []
    for region in found:
        if region.kind != "fix":
            continue
        for item in _fix_items(region):
            changes = [
                c for line in (*item.text, *item.sub) for c in changes_in(line.number, line.text)
            ]
            steps.append(FixStep(item.line, item.words, tuple(changes)))
    return steps


def _quotes(found: tuple[Region, ...]) -> list[tuple[int, str]]:
    quoted: list[tuple[int, str]] = []
    for region in found:
        if region.kind != "evidence":
            continue
        for line in region.prose():
            spans = code_spans(line.text)
            if line.text.lstrip().startswith(">"):
                quoted.append((line.number, line.text.lstrip()[1:].strip()))
            elif spans and line.text.lstrip().startswith(("-", "*", "+")):
                quoted.append((line.number, spans[-1]))
        quoted += [
            (block.line + offset + 1, text.strip())
            for block in region.blocks
            for offset, text in enumerate(block.text.splitlines())
            if text.strip()
        ]
    return quoted


def _level(text: str) -> str | None:
    match = _STATED_LEVEL.search(text)
    return match.group(1).lower() if match else None


def _score(text: str) -> float | None:
    match = _SCORE.search(text)
    return float(match["score"]) if match else None


def _cost(text: str) -> str | None:
    found = _COST.findall(text)
    if not found:
        return None
    word = found[-1].lower().rstrip("s")
    cost = _COST_WORDS[word]
    return cost if cost in COST_ORDER else None


def _listed(found: tuple[Region, ...], kind: Kind) -> list[Item]:
    return [
        item for region in found if region.kind == kind for item in items(region) if item.listed
    ]


def _versions(found: tuple[Region, ...]) -> dict[str, str]:
    stated: dict[str, str] = {}
    for region in found:
        if region.kind in ("versions", "setup"):
            for match in _VERSION.finditer(region.text()):
                stated.setdefault(match["name"].lower(), match["version"])
    return stated


def parse(text: str) -> Answer:
    """Read any Markdown diagnosis; parts it lacks are empty, never an error."""
    found = regions(text)
    return Answer(
        text=text,
        regions=found,
        confidence=_confidence(found),
        claims=tuple(_claims(found)),
        fixes=tuple(_fixes(found)),
        quotes=tuple(_quotes(found)),
        alternatives=tuple(
            Alternative(
                item.line,
                item.everything,
                _cost(item.everything),
                _level(item.words),
                _score(item.words),
            )
            for item in _listed(found, "alternatives")
        ),
        guards=tuple((item.line, item.words) for item in _listed(found, "prevention")),
        versions=_versions(found),
    )
