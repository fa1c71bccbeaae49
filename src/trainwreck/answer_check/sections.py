"""An answer cut into regions by its headings and bold labels, whatever it calls them.

Our reports put the root cause, mechanism, confidence, versions and evidence under
bold labels (`**Root cause:**`) inside `## Diagnosis`, and the rest under `###`
headings; a person or an agent writes `# Root cause` or `Confidence: High`. Both
start a region of the same kind. SYNONYMS is the one table of accepted names: a
heading matches a name exactly, or contains it as words (the longest name wins); a
bold label or a `Name:` line at the start of a line must match exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from trainwreck.report.audit.text import Block, blocks

Kind = Literal[
    "diagnosis",
    "root_cause",
    "mechanism",
    "confidence",
    "versions",
    "evidence",
    "setup",
    "fix",
    "verify",
    "config",
    "arithmetic",
    "alternatives",
    "prevention",
    "undecided",
    "similar",
    "other",
]

SYNONYMS: dict[Kind, tuple[str, ...]] = {
    "diagnosis": ("diagnosis", "summary", "tl;dr", "answer"),
    "root_cause": ("root cause", "cause", "likely cause", "most likely cause", "what broke"),
    "mechanism": ("mechanism", "why it happens", "how it happens", "explanation", "why"),
    "confidence": ("confidence",),
    "versions": ("version", "versions", "framework versions"),
    "evidence": ("evidence", "log evidence", "evidence from the logs", "signature"),
    "setup": ("user setup", "setup", "your setup", "environment"),
    "fix": ("fix", "fixes", "the fix", "solution", "how to fix", "recommended fix", "remedy"),
    "verify": ("verify", "verification", "verification script", "check the fix", "verify the fix"),
    "config": ("consolidated config", "config", "configuration", "final config", "combined config"),
    "arithmetic": ("arithmetic", "math", "memory math", "calculation", "calculations", "numbers"),
    "alternatives": (
        "if that doesn't work",
        "if that does not work",
        "alternatives",
        "alternative hypotheses",
        "other hypotheses",
        "other causes",
        "differential",
    ),
    "prevention": ("prevention", "prevent", "how to prevent", "guards", "preventing recurrence"),
    "undecided": ("not decided", "undecided"),
    "similar": ("similar confirmed failures", "similar failures"),
}
_BY_NAME: dict[str, Kind] = {name: kind for kind, names in SYNONYMS.items() for name in names}
_LONGEST_FIRST = sorted(_BY_NAME, key=len, reverse=True)

_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_BOLD_LABEL = re.compile(r"^\*\*(?P<label>[^*]+?):?\*\*:?\s*(?P<rest>.*)$")
_PLAIN_LABEL = re.compile(r"^(?P<label>[A-Z][\w '\u2019-]{1,30}):\s+(?P<rest>.*)$")
_NUMBERING = re.compile(r"^(?:\d+[.)]|step \d+:?)\s*")


@dataclass(frozen=True)
class Line:
    number: int  # 1-based
    text: str
    fenced: bool  # inside a fenced block (its own text, not the answer's prose)


@dataclass(frozen=True)
class Region:
    """A heading's or label's span: its first line holds what followed the label."""

    kind: Kind
    title: str
    lines: tuple[Line, ...]
    blocks: tuple[Block, ...]

    @property
    def line(self) -> int:
        return self.lines[0].number

    def prose(self) -> Iterator[Line]:
        return (line for line in self.lines if not line.fenced)

    def text(self) -> str:
        return "\n".join(line.text for line in self.prose())


def _normal(title: str) -> str:
    plain = title.strip().strip("*_").strip().lower().replace("\u2019", "'")
    plain = _NUMBERING.sub("", plain)
    return re.sub(r"\s*\([^)]*\)$", "", plain).rstrip(":").strip().removeprefix("the ")


def kind_of(title: str, exact: bool = False) -> Kind | None:
    """The region kind a heading (or, `exact`, a label) names, or None."""
    name = _normal(re.split(":|\\s[-\u2014\u2013]\\s", title, maxsplit=1)[0])
    found = _BY_NAME.get(name) or _BY_NAME.get(f"the {name}")
    if found or exact:
        return found
    words = f" {re.sub(r'[^a-z; ]+', ' ', name)} "
    return next((_BY_NAME[n] for n in _LONGEST_FIRST if f" {n} " in words), None)


def _fenced_lines(markdown: str) -> tuple[tuple[Block, ...], set[int]]:
    """Every fenced block, and the line numbers its fences and body take."""
    found = tuple(blocks(markdown))
    inside: set[int] = set()
    for block in found:
        body = block.text.count("\n") + 1 if block.text else 0
        inside.update(range(block.line, block.line + body + 2))
    return found, inside


def _start(text: str) -> tuple[Kind, str, str] | None:
    """(kind, title, what follows the label) when a line opens a region."""
    heading = _HEADING.match(text)
    if heading:
        title = heading.group("title")
        kind = kind_of(title) or "other"
        rest = title.split(":", 1)[1].strip() if ":" in title else ""
        return kind, title, rest
    label = _BOLD_LABEL.match(text) or _PLAIN_LABEL.match(text)
    if label:
        named = kind_of(label.group("label"), exact=True)
        if named is not None:
            return named, label.group("label"), label.group("rest")
    return None


def regions(markdown: str) -> tuple[Region, ...]:
    """The answer's regions in order; text before the first heading is an `other` region."""
    found_blocks, inside = _fenced_lines(markdown)
    opened: list[tuple[Kind, str, list[Line]]] = [("other", "", [])]
    for number, text in enumerate(markdown.splitlines(), start=1):
        start = None if number in inside else _start(text)
        if start is not None:
            kind, title, rest = start
            opened.append((kind, title, [Line(number, rest, False)]))
        else:
            opened[-1][2].append(Line(number, text, number in inside))
    built = []
    for kind, title, lines in opened:
        if not lines:
            continue
        first, last = lines[0].number, lines[-1].number
        owned = tuple(b for b in found_blocks if first <= b.line <= last)
        built.append(Region(kind, title, tuple(lines), owned))
    return tuple(built)
