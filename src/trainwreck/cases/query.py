"""What of a run's evidence the case memory compares with its records.

The error and the lines around it identify a failure; a log's routine lines
(progress bars, metric rows, config echoes) would let any record share a word
with it. So the query is each exception (its type, message and the functions
and files of its frames), the retained lines that read like an error or a
warning, and what the user said.
"""

from __future__ import annotations

import re

from trainwreck.cases.normalize import words
from trainwreck.model import Evidence, SourceRef

ERRORISH = re.compile(
    r"error|exception|fail|warn|nan\b|\binf\b|timeout|timed out|killed|abort|assert|"
    r"not supported|unsupported|unexpected|invalid|cannot|can't|unable|no module|"
    r"deprecat|mismatch|out of memory|\bhang|stuck|segmentation|core dumped",
    re.IGNORECASE,
)
MAX_QUERY_LINES = 400  # a log with more error lines repeats itself


def error_lines(evidence: Evidence) -> list[SourceRef]:
    """Each exception's "Type: message" and the retained lines that read like an error."""
    refs = [
        SourceRef(source=r.source, line=r.message_ref_line, text=f"{r.type}: {r.message}")
        for r in evidence.exceptions
    ]
    refs.extend(
        SourceRef(source=line.source, line=line.line, text=line.text)
        for line in evidence.lines
        if line.role != "advice" and ERRORISH.search(line.text)
    )
    return refs


# Where a query line that is the user's description says it comes from.
DESCRIPTION = "symptoms"


def query_lines(evidence: Evidence) -> list[tuple[SourceRef, frozenset[str]]]:
    """The run's evidence lines (where each is) with their words: errors, frames, statement."""
    frames = [
        SourceRef(
            source=record.source,
            line=frame.log_line if frame.log_line is not None else record.line,
            text=f"{frame.file} {frame.function or ''} {frame.code or ''}",
        )
        for record in evidence.exceptions
        for frame in record.frames
    ]
    refs = [*error_lines(evidence), *frames]
    if evidence.symptoms:
        refs.append(SourceRef(source=DESCRIPTION, text=evidence.symptoms))
    pairs = ((ref, words(ref.text)) for ref in refs[:MAX_QUERY_LINES])
    return [(ref, found) for ref, found in pairs if found]
