"""Everything the evidence says in words, each with where it was said.

The arithmetic analyzers read numbers out of error messages, log lines and the
user's own description alike; this is the one walk over the three.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from trainwreck.model import Evidence, SourceRef

SYMPTOMS = "symptoms"


@dataclass(frozen=True)
class Said:
    """One text of the evidence and where it was said (`line` is None for the symptoms)."""

    text: str
    source: str
    line: int | None

    @property
    def where(self) -> str:
        """`train.log:12`, or the source alone when it has no line (symptoms)."""
        return f"{self.source}:{self.line}" if self.line is not None else self.source

    @property
    def ref(self) -> SourceRef:
        """The reference a finding cites (built on demand: most texts are never cited)."""
        return SourceRef(source=self.source, line=self.line, text=self.text[:300])


def statements(evidence: Evidence, *words: str) -> Iterator[Said]:
    """Log lines, then exceptions as `Type: message`, then the symptoms; with `words`, only
    those that hold one of them (a substring test is far cheaper than a regex per line).

    A traceback's message is usually also a log line; the line points at the message
    itself, where the exception points at the start of its traceback.
    """
    for said in _all_statements(evidence):
        if not words or any(word in said.text for word in words):
            yield said


def _all_statements(evidence: Evidence) -> Iterator[Said]:
    for line in evidence.lines:
        yield Said(line.text, line.source, line.line)
    for exc in evidence.exceptions:
        yield Said(f"{exc.type}: {exc.message}", exc.source, exc.message_ref_line)
    if evidence.symptoms:
        yield Said(evidence.symptoms, SYMPTOMS, None)


def first_match(
    evidence: Evidence, regex: re.Pattern[str], *words: str
) -> tuple[re.Match[str], Said] | None:
    """The first statement (holding one of `words`, when given) the regex matches."""
    for said in statements(evidence, *words):
        if (found := regex.search(said.text)) is not None:
            return found, said
    return None
