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
    """One text of the evidence and the reference a finding cites for it."""

    text: str
    ref: SourceRef

    @property
    def where(self) -> str:
        """`train.log:12`, or the source alone when it has no line (symptoms)."""
        line = self.ref.line
        return f"{self.ref.source}:{line}" if line is not None else self.ref.source


def statements(evidence: Evidence) -> Iterator[Said]:
    """Log lines, then exceptions as `Type: message`, then the symptoms.

    A traceback's message is usually also a log line; the line points at the message
    itself, where the exception points at the start of its traceback.
    """
    for line in evidence.lines:
        yield Said(line.text, SourceRef(source=line.source, line=line.line, text=line.text))
    for exc in evidence.exceptions:
        text = f"{exc.type}: {exc.message}"
        yield Said(text, SourceRef(source=exc.source, line=exc.line, text=text[:300]))
    if evidence.symptoms:
        yield Said(evidence.symptoms, SourceRef(source=SYMPTOMS, text=evidence.symptoms[:300]))


def first_match(evidence: Evidence, regex: re.Pattern[str]) -> tuple[re.Match[str], Said] | None:
    """The first statement the regex matches, with the match."""
    for said in statements(evidence):
        if (found := regex.search(said.text)) is not None:
            return found, said
    return None
