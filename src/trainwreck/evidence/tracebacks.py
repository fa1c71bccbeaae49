"""Parse Python tracebacks (chained, per rank), faulthandler dumps and c10 errors.

Works on retained LogLines, grouped by rank first so that tracebacks printed by
eight ranks at once do not get mixed. Identical exceptions from several ranks
become one record with `count` ranks; the first to fail (by timestamp when the
log has them, else by line) is the one kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from trainwreck.model import ExceptionRecord, Frame, LogLine

Chain = Literal["cause", "context"]
_HEADER = re.compile(r"^\s*Traceback \(most recent call last\):")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:,? in (?P<func>.+))?$')
_EXC = re.compile(
    r"^(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Iteration|Warning"
    r"|Fault|Failure|Timeout))(?::\s?(?P<msg>.*))?$"
)
_CHAIN: dict[str, Chain] = {
    "During handling of the above exception": "context",
    "The above exception was the direct cause": "cause",
}
_FATAL = re.compile(r"^Fatal Python error: (?P<msg>.+)$")
_FAULT_THREAD = re.compile(r"^(?:Current thread|Thread) 0x[0-9a-f]+ .*\(most recent call first\):")
_CPP_RAISED = re.compile(r"Exception raised from (?P<func>\S+) at (?P<file>\S+):(?P<line>\d+)")
_CARET = re.compile(r"^\s*[~^]+\s*$")
_LIB = re.compile(r"(?:site|dist)-packages/([A-Za-z0-9_.\-]+)/")
MAX_MESSAGE_LINES = 20


def frame_library(path: str) -> str | None:
    """The package a frame belongs to; None for the user's own code."""
    match = _LIB.search(path.replace("\\", "/"))
    if match:
        return match.group(1).split(".")[0] if match.group(1) != "torch" else "torch"
    if re.search(r"(?:^|/)(?:aten|c10|torch)/", path) or "/lib/python3" in path:
        return "torch" if re.search(r"(?:aten|c10|torch)/", path) else "python"
    return None


@dataclass
class _Draft:
    """An exception being assembled line by line."""

    start: LogLine
    frames: list[Frame] = field(default_factory=list)
    type: str | None = None
    message: list[str] = field(default_factory=list)
    chain: Chain | None = None
    last_line: int = 0
    message_line: int | None = None

    def record(self) -> ExceptionRecord | None:
        if self.type is None:
            return None
        return ExceptionRecord(
            type=self.type,
            message="\n".join(self.message).strip(),
            frames=tuple(self.frames),
            source=self.start.source,
            line=self.start.line,
            rank=self.start.rank,
            chain=self.chain,
            message_line=self.message_line,
        )


class _RankParser:
    """State machine over one rank's lines."""

    def __init__(self) -> None:
        self.done: list[tuple[ExceptionRecord, LogLine]] = []
        self.draft: _Draft | None = None
        self.in_message = False

    def finish(self) -> None:
        draft, self.draft, self.in_message = self.draft, None, False
        record = draft.record() if draft else None
        if record is not None and draft is not None:
            self.done.append((record, draft.start))

    def feed(self, item: LogLine) -> None:
        text = item.text
        if self.draft and self.in_message and item.line > self.draft.last_line + 1:
            self.finish()
        for marker, chain in _CHAIN.items():
            if text.startswith(marker):
                if self.draft and self.draft.type:
                    self.draft.chain = chain
                self.finish()
                if self.done:
                    self.done[-1] = (
                        self.done[-1][0].model_copy(update={"chain": chain}),
                        self.done[-1][1],
                    )
                return
        if _HEADER.match(text) or _FAULT_THREAD.match(text):
            self._start(item, faulthandler=bool(_FAULT_THREAD.match(text)))
            return
        self._line(item)

    def _start(self, item: LogLine, faulthandler: bool) -> None:
        if faulthandler and self.draft and self.draft.type and not self.draft.frames:
            self.draft.last_line = item.line  # frames of a fatal error follow its header
            self.in_message = False
            return
        self.finish()
        self.draft = _Draft(start=item, last_line=item.line)

    def _line(self, item: LogLine) -> None:
        text, draft = item.text, self.draft
        frame = _FRAME.match(text)
        if frame:
            if draft is None or self.in_message:
                self.finish()
                draft = self.draft = _Draft(start=item)
            draft.frames.append(_frame(frame, item.line))
            draft.last_line = item.line
            return
        if self._fatal_or_exception(item):
            return
        if draft is None:
            return
        if self.in_message:
            self._message_line(item)
        elif draft.frames and not _CARET.match(text) and text.startswith("    "):
            last = draft.frames[-1]
            if last.code is None:
                draft.frames[-1] = last.model_copy(update={"code": text.strip()})
            draft.last_line = item.line

    def _fatal_or_exception(self, item: LogLine) -> bool:
        """Start or close a record at a `Type: message` or `Fatal Python error:` line."""
        fatal = _FATAL.match(item.text)
        exc = None if fatal else _EXC.match(item.text)
        if not fatal and not exc:
            return False
        if self.draft is not None and self.draft.type is not None:
            self.finish()
        if self.draft is None:
            self.draft = _Draft(start=item)
        draft = self.draft
        if fatal:
            draft.type, draft.message = "Fatal Python error", [fatal.group("msg")]
        elif exc:
            draft.type, draft.message = exc.group("type"), [exc.group("msg") or ""]
        draft.last_line, draft.message_line, self.in_message = item.line, item.line, True
        return True

    def _message_line(self, item: LogLine) -> None:
        draft = self.draft
        if draft is None or len(draft.message) >= MAX_MESSAGE_LINES:
            return
        cpp = _CPP_RAISED.search(item.text)
        if cpp:
            draft.frames.append(
                Frame(
                    file=cpp.group("file"),
                    line=int(cpp.group("line")),
                    function=cpp.group("func"),
                    library="torch",
                    log_line=item.line,
                )
            )
        draft.message.append(item.text)
        draft.last_line = item.line


def _frame(match: re.Match[str], log_line: int) -> Frame:
    path = match.group("file")
    return Frame(
        file=path,
        line=int(match.group("line")),
        function=(match.group("func") or "").strip() or None,
        library=frame_library(path),
        log_line=log_line,
    )


def _parse_rank(lines: Sequence[LogLine]) -> list[tuple[ExceptionRecord, LogLine]]:
    parser = _RankParser()
    for item in lines:
        parser.feed(item)
    parser.finish()
    return [(_reverse_faulthandler(rec), start) for rec, start in parser.done]


def _reverse_faulthandler(record: ExceptionRecord) -> ExceptionRecord:
    """faulthandler prints the innermost frame first; store frames outermost first."""
    if record.type != "Fatal Python error":
        return record
    return record.model_copy(update={"frames": tuple(reversed(record.frames))})


def _group_key(record: ExceptionRecord) -> tuple[str, str, str | None, tuple[str, ...]]:
    message = re.sub(r"0x[0-9a-fA-F]+|\d+", "N", record.message.split("\n")[0])
    frames = tuple(f"{f.file}:{f.function}" for f in record.frames[-3:])
    return record.type, message, record.chain, frames


def parse_exceptions(lines: Sequence[LogLine]) -> list[ExceptionRecord]:
    """Every exception in one source's lines, grouped across ranks, in log order."""
    by_rank: dict[int | None, list[LogLine]] = {}
    for item in lines:
        by_rank.setdefault(item.rank, []).append(item)
    found: list[tuple[ExceptionRecord, LogLine]] = []
    for rank_lines in by_rank.values():
        found.extend(_parse_rank(rank_lines))
    groups: dict[
        tuple[str, str, str | None, tuple[str, ...]], list[tuple[ExceptionRecord, LogLine]]
    ] = {}
    for record, start in found:
        key = (
            _group_key(record)
            if record.rank is not None
            else (record.type, str(record.line), None, ())
        )
        groups.setdefault(key, []).append((record, start))
    merged = [_merge(members) for members in groups.values()]
    return sorted(merged, key=lambda record: record.line)


def _merge(members: list[tuple[ExceptionRecord, LogLine]]) -> ExceptionRecord:
    """Keep the first rank to fail: earliest timestamp if every copy has one, else line."""
    if all(start.timestamp for _, start in members):
        first = min(members, key=lambda pair: (pair[1].timestamp or "", pair[0].line))
    else:
        first = min(members, key=lambda pair: pair[0].line)
    ranks = {record.rank for record, _ in members}
    named = tuple(sorted(rank for rank in ranks if rank is not None))
    return first[0].model_copy(update={"count": len(ranks), "ranks": named})
