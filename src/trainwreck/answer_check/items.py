"""A region's prose as the items a reader sees: list items with their sub-lines, and paragraphs.

A top-level item (`1.`, `-`, `*` at the margin) runs until the next one or the next
line back at the margin; its indented lines are either sub-items (a change, a check)
or the continuation of its text. Blank lines do not end an item: our reports put
an indented code block under a fix step after one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from trainwreck.answer_check.sections import Line, Region

_TOP_ITEM = re.compile(r"^ ?(?:\d+[.)]|[-*+])\s+")
_SUB_ITEM = re.compile(r"^\s+(?:\d+[.)]|[-*+])\s+")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")


@dataclass
class Item:
    """A list item (or a paragraph): its first line, its text lines, its sub-item lines."""

    line: int
    listed: bool
    text: list[Line] = field(default_factory=list)
    sub: list[Line] = field(default_factory=list)

    @property
    def words(self) -> str:
        """The item's own text, continuation lines joined (sub-items left out)."""
        return " ".join(line.text.strip() for line in self.text)

    @property
    def everything(self) -> str:
        return " ".join(line.text.strip() for line in (*self.text, *self.sub))


def items(region: Region) -> list[Item]:
    """The region's list items and paragraphs in order; fenced lines are left out."""
    found: list[Item] = []
    current: Item | None = None
    for line in region.prose():
        text = line.text
        if not text.strip():
            if current is not None and not current.listed:
                current = None  # a blank line ends a paragraph
            continue
        if _TOP_ITEM.match(text):
            current = Item(line.number, True, [Line(line.number, _TOP_ITEM.sub("", text), False)])
            found.append(current)
        elif current is not None and (text.startswith((" ", "\t")) or not current.listed):
            target = current.sub if _SUB_ITEM.match(text) or current.sub else current.text
            target.append(line)
        else:
            current = Item(line.number, False, [line])
            found.append(current)
    return found


def code_spans(text: str) -> list[str]:
    """Each inline code span's text, the padding space around a backtick removed."""
    spans = []
    for match in _CODE_SPAN.finditer(text):
        inner = match.group(2)
        if inner.startswith(" `") or inner.endswith("` "):
            inner = inner[1:] if inner.startswith(" ") else inner
            inner = inner[:-1] if inner.endswith(" ") else inner
        spans.append(inner)
    return spans
