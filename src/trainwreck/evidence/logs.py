"""Streaming log scanner: bounded memory whatever the size of the log.

Reads large binary chunks and finds interesting lines with one automaton pass
over the whole chunk (see `matcher.py`), so Python touches only those lines
(plus the head and the tail of the file) instead of every line. The output is
raw retained lines with their line numbers; `lines.py` turns them into LogLines.
A private key's body lines say nothing about what they are, so every chunk is
also searched for key markers, and a kept line inside a key block is replaced.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from trainwreck.evidence._text import MAX_LINE_BYTES, decode_line
from trainwreck.evidence.matcher import Matcher, find_hits
from trainwreck.redact import KEY_PLACEHOLDER, KeyBlockLines

CHUNK_BYTES = 8 * 1024 * 1024
HEAD_LINES = 200
TAIL_LINES = 200
MAX_KEPT_LINES = 20_000
MAX_SAMPLED_LINES = 5_000  # lines kept from dense series such as `loss: 1.23`
SAMPLE_PER_CHUNK = 2048
CONTEXT_AFTER = 2  # a traceback's code line and caret line follow its File line
# A warning printed every step says no more the 100th time than the 5th: identical
# hit lines past this many are counted, not kept (metric lines differ, so stay).
MAX_REPEATS = 5
# Many logs read at once (one per rank of a large job) share what this many logs may
# keep, so a thousand rank logs hold about as many lines as ten: each keeps its share of
# the head, tail, samples and hits, and never fewer than MIN_SHARE lines of each (a
# rank's last lines say where it stopped; its errors are hits, kept first).
FULL_BUDGET_LOGS = 10
MIN_SHARE = 10


@dataclass(frozen=True)
class Budget:
    """How many lines of one log are kept: its head, its tail, samples of dense series,
    and hit lines."""

    head: int = HEAD_LINES
    tail: int = TAIL_LINES
    sampled: int = MAX_SAMPLED_LINES
    kept: int = MAX_KEPT_LINES


def budget_for(logs: int) -> Budget:
    """Each log's share when `logs` logs are read together."""
    if logs <= FULL_BUDGET_LOGS:
        return Budget()

    def share(lines: int) -> int:
        return max(MIN_SHARE, lines * FULL_BUDGET_LOGS // logs)

    return Budget(
        share(HEAD_LINES), share(TAIL_LINES), share(MAX_SAMPLED_LINES), share(MAX_KEPT_LINES)
    )


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
    truncated: bool = False  # more interesting lines than the budget keeps
    repeats_dropped: int = 0  # identical hit lines past MAX_REPEATS


class _Scanner:
    """Chunk-by-chunk state: line count, kept and sampled lines, head and tail."""

    def __init__(self, matcher: Matcher, budget: Budget) -> None:
        self.matcher = matcher
        self.budget = budget
        self.kept: dict[int, bytes] = {}
        self.sampled: dict[int, bytes] = {}
        self.halvings = 0
        self.line_count = 0  # complete lines before the current chunk
        self.pending_after = 0
        self.tail: list[bytes] = []
        self.tail_start = 1
        self.truncated = False
        self.seen: dict[bytes, int] = {}
        self.repeats_dropped = 0
        self.key_lines = KeyBlockLines()

    def _repeated(self, raw: bytes) -> bool:
        """Count a hit line; True once it has been kept MAX_REPEATS times."""
        count = self.seen.get(raw, 0)
        if count >= MAX_REPEATS:
            self.repeats_dropped += 1
            return True
        self.seen[raw] = count + 1
        return False

    def _keep(self, line_number: int, raw: bytes) -> None:
        if line_number in self.kept:
            return
        if len(self.kept) >= self.budget.kept:
            self.truncated = True
            return
        self.kept[line_number] = raw[:MAX_LINE_BYTES]

    def _sample(self, line_number: int, raw: bytes) -> None:
        """Keep a sampled line; past the budget, thin the sample to half."""
        self.sampled[line_number] = raw[:MAX_LINE_BYTES]
        if len(self.sampled) > self.budget.sampled:
            self.sampled = {n: self.sampled[n] for n in sorted(self.sampled)[::2]}
            self.halvings += 1

    def scan(self, chunk: bytes) -> None:
        """Keep hit lines (and context) of a chunk that ends on a line boundary."""
        self.key_lines.feed(chunk, self.line_count + 1)
        self._keep_head(chunk)
        self._keep_pending(chunk)
        counted, line_number = 0, self.line_count + 1
        hits = find_hits(self.matcher, chunk, max(SAMPLE_PER_CHUNK >> self.halvings, 8))
        # Once kept lines are capped (and the cap reported), only samples can be stored.
        starts = hits.sampled if self.truncated else hits.kept | hits.sampled
        for start in sorted(starts):
            line_number += chunk.count(b"\n", counted, start)
            counted = start
            end = chunk.find(b"\n", start)
            end = len(chunk) if end < 0 else end
            if start in hits.sampled:
                self._sample(line_number, chunk[start:end])
                continue
            if self._repeated(chunk[start:end]):
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
        """Finish a hit's context that ran past the previous chunk (and past this one, when
        this chunk holds fewer lines than the context still owed)."""
        position, owed = 0, self.pending_after
        self.pending_after = 0
        for offset in range(owed):
            if position >= len(chunk):
                self.pending_after = owed - offset
                return
            stop = chunk.find(b"\n", position)
            stop = len(chunk) if stop < 0 else stop
            self._keep(self.line_count + 1 + offset, chunk[position:stop])
            position = stop + 1

    def _keep_head(self, chunk: bytes) -> None:
        if self.line_count >= self.budget.head:
            return
        body = chunk[:-1] if chunk.endswith(b"\n") else chunk
        head = self.budget.head
        for offset, raw in enumerate(body.split(b"\n", head)[:head]):
            if self.line_count + offset < head:
                self._keep(self.line_count + offset + 1, raw)

    def _update_tail(self, chunk: bytes) -> None:
        """Remember the last lines seen so far (the budget's tail), without copying the chunk."""
        end = len(chunk) - 1 if chunk.endswith(b"\n") else len(chunk)
        cut = end
        for _ in range(self.budget.tail):
            cut = chunk.rfind(b"\n", 0, cut)
            if cut < 0:
                break
        new = chunk[cut + 1 : end].split(b"\n") if end > 0 else []
        self.tail = [*self.tail, *(line[:MAX_LINE_BYTES] for line in new)][-self.budget.tail :]
        total = self.line_count + (0 if chunk.endswith(b"\n") else 1)
        self.tail_start = total - len(self.tail) + 1

    def result(self, bytes_read: int) -> LogScan:
        for offset, raw in enumerate(self.tail):  # the tail is kept even past the cap
            self.kept.setdefault(self.tail_start + offset, raw)
        for number, raw in self.sampled.items():
            self.kept.setdefault(number, raw)
        keys = self.key_lines
        lines = [
            RawLine(n, KEY_PLACEHOLDER if keys and keys.covers(n) else decode_line(self.kept[n]))
            for n in sorted(self.kept)
        ]
        total = self.tail_start + len(self.tail) - 1 if self.tail else self.line_count
        return LogScan(lines, max(total, 0), bytes_read, self.truncated, self.repeats_dropped)


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


def scan_stream(
    stream: BinaryIO, matcher: Matcher, chunk_bytes: int = CHUNK_BYTES, budget: Budget = Budget()
) -> LogScan:
    """Scan a binary stream; memory stays near a few chunks whatever its size."""
    scanner = _Scanner(matcher, budget)
    bytes_read = 0
    for chunk in _chunks(stream, chunk_bytes):
        bytes_read += len(chunk)
        scanner.scan(chunk)
    return scanner.result(bytes_read)
