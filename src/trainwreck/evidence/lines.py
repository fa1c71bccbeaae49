"""Turn retained raw lines into LogLines: prefixes, timestamps, progress bars.

Distributed launchers prefix each line with the rank that printed it; the rank
matters (which rank failed first), the prefix does not, so it is stripped and
recorded. A tqdm bar rewrites its line with carriage returns, so one physical
line can hold hundreds of bar states and, at its end, the real error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from trainwreck.evidence._text import clean
from trainwreck.evidence.logs import RawLine
from trainwreck.model import LogLine
from trainwreck.redact.terminal import strip_sequences

# `[80746] ` is a paste's line numbering that some reports put before the prefix.
_RANK_PREFIXES = (
    re.compile(r"^(?:\[\d+\]\s+)?\[rank(\d+)\]:\s?"),  # torch >= 2.3 per-rank excepthook
    re.compile(r"^\[default(\d+)\]:"),  # torchrun --tee / --log-line-prefix
    re.compile(r"^\[\d+,(\d+)\]<(?:stdout|stderr)>:\s?"),  # mpirun --tag-output
    re.compile(r"^rank(\d+):\s?"),
    re.compile(r"^(\d{1,4}): (?=\S|\s{2,})"),  # srun -l / torchrun -l
)
_ISO_TIME = re.compile(
    r"^\[?(\d{4}-\d{2}-\d{2}[ T_]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\]?[ \t]*"
)
# glog style, kept in the text because its first letter is the severity.
_GLOG_TIME = re.compile(r"^\[?[EWIF](\d{3,4} \d{2}:\d{2}:\d{2}\.\d+)")


@dataclass(frozen=True)
class Prefix:
    rank: int | None
    timestamp: str | None
    text: str


# Wrappers around the whole line: docker compose service names, vLLM's logger
# ("ERROR 11-18 18:07:28 engine.py:366] "), and vLLM/Ray worker tags.
_COMPOSE = re.compile(r"^[\w.-]+-\d+\s+\| ")
_VLLM_LOGGER = re.compile(
    r"^(?:INFO|WARNING|ERROR|DEBUG|CRITICAL) (\d\d-\d\d \d\d:\d\d:\d\d)(?:\.\d+)? [\w.]+:\d+\] "
)
_WORKER_TAG = re.compile(r"^\((?:[\w:]+) pid=\d+(?:, ip=[\d.]+)?\) ")


def _strip_wrappers(text: str) -> tuple[str, str | None]:
    """Remove container/logger/worker wrappers; return the text and any timestamp."""
    timestamp = None
    for pattern in (_COMPOSE, _WORKER_TAG, _VLLM_LOGGER, _WORKER_TAG):
        match = pattern.match(text)
        if match:
            if match.groups():
                timestamp = match.group(1)
            text = text[match.end() :]
    return text, timestamp


def split_prefix(text: str) -> Prefix:
    """Strip a rank prefix and a leading timestamp; record both."""
    text, wrapped_time = _strip_wrappers(text)
    rank = None
    stripped = True
    while stripped:  # torchrun --tee puts `[default1]:` before torch's own `[rank1]: `
        stripped = False
        for pattern in _RANK_PREFIXES:
            match = pattern.match(text)
            if match:
                rank = int(match.group(1)) if rank is None else rank
                text, stripped = text[match.end() :], True
                break
    timestamp = None
    match = _ISO_TIME.match(text)
    if match:
        timestamp, text = match.group(1), text[match.end() :]
    else:
        glog = _GLOG_TIME.match(text)
        timestamp = glog.group(1) if glog else wrapped_time
    return Prefix(rank, timestamp, text)


def _segments(text: str) -> list[str]:
    """Split a carriage-return line into the states worth keeping.

    The last state is what the terminal finally showed; earlier ones are kept
    only if they are not progress-bar redraws (they hold text printed mid-bar).
    """
    parts = [part for part in text.split("\r") if part.strip()]
    if len(parts) <= 1:
        return parts or [text]
    last = parts[-1]
    return [part for part in parts[:-1] if not _looks_like_bar(part)] + [last]


_BAR = re.compile(r"\d+%\|.*\||\[\d+:\d+(?::\d+)?<|\d+/\d+ \[")


def _looks_like_bar(text: str) -> bool:
    return bool(_BAR.search(text)) and len(text) < 400


def _split_after_bar(text: str) -> list[str]:
    """A message printed right after a bar, with no newline, starts a new line."""
    match = re.search(r"(?:it/s|s/it|\?it/s)\]", text)
    if match and match.end() < len(text) and text[match.end() :].strip():
        return [text[: match.end()], text[match.end() :]]
    return [text]


# A file per rank: torchrun --log-dir writes <run>/attempt_<n>/<rank>/stdout.log and stderr.log;
# launchers and users name per-rank files rank<N>, rank_<N>, rank-<N>.
ATTEMPT_FOLDER = r"attempt_\d+"  # torchrun --log-dir: one folder per restart of the job
_RANK_PATHS = (
    re.compile(ATTEMPT_FOLDER + r"[/\\](\d+)[/\\](?:stdout|stderr)\.log$"),
    re.compile(r"(?:^|[/\\._-])rank[_-]?(\d+)(?=[._-]|$)[^/\\]*$", re.IGNORECASE),
)


def rank_of_path(path: str) -> int | None:
    """The rank a per-rank log file belongs to, from its path; None for a shared log."""
    for pattern in _RANK_PATHS:
        match = pattern.search(path)
        if match:
            return int(match.group(1))
    return None


def to_log_lines(
    source: str, raws: Iterable[RawLine], rank: int | None = None
) -> Iterator[LogLine]:
    """Clean each retained line (ANSI, CR, prefix, secrets) into LogLines; `rank` is the
    file's own rank, for lines that carry no prefix."""
    for raw in raws:
        text = strip_sequences(raw.text).rstrip("\r")
        for segment in _segments(text):
            for piece in _split_after_bar(segment):
                prefix = split_prefix(piece)
                yield LogLine(
                    source=source,
                    line=raw.line,
                    text=clean(prefix.text.rstrip()),
                    rank=prefix.rank if prefix.rank is not None else rank,
                    timestamp=prefix.timestamp,
                )
