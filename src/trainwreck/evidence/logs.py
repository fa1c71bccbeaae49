"""Streaming log scanner: bounded memory and ~100+ MB/s on multi-GB logs.

Reads large binary chunks and finds interesting lines with literal searches
over the whole chunk (see `matcher.py`), so Python touches only those lines
(plus the head and the tail of the file) instead of every line. The output is
raw retained lines with their line numbers; `lines.py` turns them into LogLines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from trainwreck.evidence.matcher import BOUNDED_WORDS, LiteralPass, Matcher

CHUNK_BYTES = 8 * 1024 * 1024
HEAD_LINES = 200
TAIL_LINES = 200
MAX_LINE_BYTES = 4096
MAX_KEPT_LINES = 20_000
MAX_SAMPLED_LINES = 5_000  # lines kept from dense series such as `loss: 1.23`
SAMPLE_PER_CHUNK = 2048
CONTEXT_AFTER = 2  # a traceback's code line and caret line follow its File line


@dataclass(frozen=True)
class RawLine:
    """One retained line: its 1-based number and decoded (still raw) text."""

    line: int
    text: str


@dataclass
class LogScan:
    """What a scan kept, and how much it read."""

    lines: list[RawLine] = field(default_factory=list)
    lines_read: int = 0
    bytes_read: int = 0
    truncated: bool = False  # more interesting lines than MAX_KEPT_LINES


def decode_line(raw: bytes) -> str:
    """Decode one line, capped at MAX_LINE_BYTES, replacing invalid UTF-8."""
    if len(raw) > MAX_LINE_BYTES:
        raw = raw[:MAX_LINE_BYTES]
    return raw.decode("utf-8", "replace").rstrip("\r\n")


class _Scanner:
    """Chunk-by-chunk state: line count, kept and sampled lines, head and tail."""

    def __init__(self, matcher: Matcher) -> None:
        self.matcher = matcher
        self.kept: dict[int, bytes] = {}
        self.sampled: dict[int, bytes] = {}
        self.halvings = 0
        self.line_count = 0  # complete lines before the current chunk
        self.pending_after = 0
        self.tail: list[bytes] = []
        self.tail_start = 1
        self.truncated = False

    def _keep(self, line_number: int, raw: bytes) -> None:
        if line_number in self.kept:
            return
        if len(self.kept) >= MAX_KEPT_LINES:
            self.truncated = True
            return
        self.kept[line_number] = raw[:MAX_LINE_BYTES]

    def _sample(self, line_number: int, raw: bytes) -> None:
        """Keep a sampled line; past the budget, thin the sample to half."""
        self.sampled[line_number] = raw[:MAX_LINE_BYTES]
        if len(self.sampled) > MAX_SAMPLED_LINES:
            self.sampled = {n: self.sampled[n] for n in sorted(self.sampled)[::2]}
            self.halvings += 1

    def _hit_starts(self, chunk: bytes) -> tuple[list[int], set[int]]:
        """Starts of interesting lines in a chunk, and which of them are samples."""
        lower = chunk.lower()
        starts: set[int] = set()
        for finder in self.matcher.generic:
            starts.update(lower.rfind(b"\n", 0, m.start()) + 1 for m in finder.finditer(lower))
        for word in BOUNDED_WORDS:
            for m in word.finditer(lower):
                if m.start() == 0 or not lower[m.start() - 1 : m.start()].isalpha():
                    starts.add(lower.rfind(b"\n", 0, m.start()) + 1)
        for full in self.matcher.full_scans:
            starts.update(chunk.rfind(b"\n", 0, m.start()) + 1 for m in full.finditer(chunk))
        sampled: set[int] = set()
        self._rare = starts  # rare hits found under a dense host join the kept lines
        for literal_pass in self.matcher.passes:
            found, dense = self._pass_starts(chunk, lower, literal_pass)
            (sampled if dense else starts).update(found)
        return sorted(starts | sampled), sampled - starts

    def _pass_starts(
        self, chunk: bytes, lower: bytes, literal_pass: LiteralPass
    ) -> tuple[set[int], bool]:
        """Lines where a signature branch matches; a dense literal is sampled first.

        A literal on most lines (`loss`) would cost a regex call per line; a
        uniform sample keeps a curve's shape at bounded cost, and literals nested
        under it then get passes of their own, so rare signatures are never lost.
        """
        finder = literal_pass.finder
        candidates = sorted({lower.rfind(b"\n", 0, m.start()) + 1 for m in finder.finditer(lower)})
        quota = max(SAMPLE_PER_CHUNK >> self.halvings, 8)
        dense = len(candidates) > quota
        branches = literal_pass.branches if dense else literal_pass.all_branches()
        if dense:
            candidates = candidates[:: -(-len(candidates) // quota)]
        found = {start for start in candidates if _matches(chunk, start, branches)}
        if dense:
            for inner in literal_pass.hosted:
                inner_found, inner_dense = self._pass_starts(chunk, lower, inner)
                (found if inner_dense else self._rare).update(inner_found)
        return found, dense

    def scan(self, chunk: bytes) -> None:
        """Keep hit lines (and context) of a chunk that ends on a line boundary."""
        self._keep_head(chunk)
        self._keep_pending(chunk)
        counted, line_number = 0, self.line_count + 1
        starts, sampled = self._hit_starts(chunk)
        for start in starts:
            line_number += chunk.count(b"\n", counted, start)
            counted = start
            end = chunk.find(b"\n", start)
            end = len(chunk) if end < 0 else end
            if start in sampled:
                self._sample(line_number, chunk[start:end])
                continue
            self._keep(line_number, chunk[start:end])
            self._keep_after(chunk, end, line_number)
        self.line_count += chunk.count(b"\n")
        self._update_tail(chunk)

    def _keep_after(self, chunk: bytes, end: int, line_number: int) -> None:
        """Keep the CONTEXT_AFTER lines that follow a hit, carrying over a chunk end."""
        position = end + 1
        for offset in range(1, CONTEXT_AFTER + 1):
            if position >= len(chunk):
                self.pending_after = CONTEXT_AFTER - offset + 1
                return
            stop = chunk.find(b"\n", position)
            stop = len(chunk) if stop < 0 else stop
            self._keep(line_number + offset, chunk[position:stop])
            position = stop + 1
        self.pending_after = 0

    def _keep_pending(self, chunk: bytes) -> None:
        """Finish a hit's context that ran past the previous chunk."""
        position = 0
        for offset in range(self.pending_after):
            stop = chunk.find(b"\n", position)
            stop = len(chunk) if stop < 0 else stop
            self._keep(self.line_count + 1 + offset, chunk[position:stop])
            position = stop + 1
        self.pending_after = 0

    def _keep_head(self, chunk: bytes) -> None:
        if self.line_count >= HEAD_LINES:
            return
        body = chunk[:-1] if chunk.endswith(b"\n") else chunk
        for offset, raw in enumerate(body.split(b"\n", HEAD_LINES)[:HEAD_LINES]):
            if self.line_count + offset < HEAD_LINES:
                self._keep(self.line_count + offset + 1, raw)

    def _update_tail(self, chunk: bytes) -> None:
        """Remember the last TAIL_LINES lines seen so far, without copying the chunk."""
        end = len(chunk) - 1 if chunk.endswith(b"\n") else len(chunk)
        cut = end
        for _ in range(TAIL_LINES):
            cut = chunk.rfind(b"\n", 0, cut)
            if cut < 0:
                break
        new = chunk[cut + 1 : end].split(b"\n") if end > 0 else []
        self.tail = [*self.tail, *(line[:MAX_LINE_BYTES] for line in new)][-TAIL_LINES:]
        total = self.line_count + (0 if chunk.endswith(b"\n") else 1)
        self.tail_start = total - len(self.tail) + 1

    def result(self, bytes_read: int) -> LogScan:
        for offset, raw in enumerate(self.tail):  # the tail is kept even past the cap
            self.kept.setdefault(self.tail_start + offset, raw)
        for number, raw in self.sampled.items():
            self.kept.setdefault(number, raw)
        lines = [RawLine(n, decode_line(self.kept[n])) for n in sorted(self.kept)]
        total = self.tail_start + len(self.tail) - 1 if self.tail else self.line_count
        return LogScan(lines, max(total, 0), bytes_read, self.truncated)


def _matches(chunk: bytes, start: int, branches: tuple[re.Pattern[str], ...]) -> bool:
    end = chunk.find(b"\n", start)
    text = decode_line(chunk[start : len(chunk) if end < 0 else end])
    return any(branch.search(text) for branch in branches)


def _chunks(stream: BinaryIO, chunk_bytes: int) -> Iterator[bytes]:
    """Yield chunks that end on a newline (except the last); cap runaway lines."""
    carry = b""
    while True:
        block = stream.read(chunk_bytes)
        if not block:
            break
        data = carry + block if carry else block
        cut = data.rfind(b"\n")
        if cut < 0 and len(data) < 4 * chunk_bytes:
            carry = data
            continue
        cut = len(data) - 1 if cut < 0 else cut
        carry = data[cut + 1 :]
        yield data[: cut + 1]
    if carry:
        yield carry


def scan_stream(stream: BinaryIO, matcher: Matcher, chunk_bytes: int = CHUNK_BYTES) -> LogScan:
    """Scan a binary stream; memory stays near a few chunks whatever its size."""
    scanner = _Scanner(matcher)
    bytes_read = 0
    for chunk in _chunks(stream, chunk_bytes):
        bytes_read += len(chunk)
        scanner.scan(chunk)
    return scanner.result(bytes_read)
