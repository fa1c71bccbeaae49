"""Reading a Markdown report as text: its sections, fenced blocks and own prose.

Tolerant of layout, so the same reading serves an answer written by a person or
an agent to our section layout (issue 23), not only our renderer's output.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from trainwreck.engine.recall import THREAD_LINES

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<language>[\w+-]*)\s*$")
_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*$")
# Lines that quote the user's own text: the evidence list, setup values, matched thread lines.
_QUOTE_BLOCKS = ("**Evidence:**", "**User setup:**")
_QUOTE_SECTIONS = ("similar confirmed failures", "what was read")
_MATCHED = re.compile(r"^\s*- Matched:")


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its text, the section it sits in, its first line."""

    language: str
    text: str
    section: str
    line: int  # 1-based line of the opening fence


def _heading(line: str) -> str | None:
    match = _HEADING.match(line)
    return match.group("title").lower() if match else None


def blocks(markdown: str) -> Iterator[Block]:
    """Every fenced block, its common indentation removed."""
    section, body = "", list[str]()
    opened: tuple[re.Match[str], int] | None = None
    for number, line in enumerate(markdown.splitlines(), start=1):
        if opened is None:
            section = _heading(line) or section
            match = _FENCE.match(line)
            if match:
                opened, body = (match, number), list[str]()
            continue
        match, start = opened
        stripped = line.strip()
        if (
            stripped.startswith(match.group("fence")[0])
            and set(stripped) == {stripped[0]}
            and (len(stripped) >= len(match.group("fence")))
        ):
            indent = len(match.group("indent"))
            text = "\n".join(row[indent:] if row[:indent].isspace() else row for row in body)
            yield Block(match.group("language").lower(), text, section, start)
            opened = None
        else:
            body.append(line)


def prose_lines(markdown: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of what the report itself wrote, quotes of the user's text left out."""
    section, quoting = "", False
    for number, line in enumerate(markdown.splitlines(), start=1):
        heading = _heading(line)
        if heading is not None:
            section, quoting = heading, False
            continue
        if line.strip() in _QUOTE_BLOCKS:
            quoting = True
            continue
        if quoting and not line.startswith(("- ", " ")) and line.strip():
            quoting = False
        if quoting or section in _QUOTE_SECTIONS or _MATCHED.match(line):
            continue
        yield number, line.split(THREAD_LINES, 1)[0]  # the thread's own lines are its text
