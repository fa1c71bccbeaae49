"""The one-pass automaton keeps exactly the lines a naive line-by-line check would."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from trainwreck import analyzers
from trainwreck.evidence._text import decode_line
from trainwreck.evidence.logs import (
    CONTEXT_AFTER,
    HEAD_LINES,
    MAX_REPEATS,
    TAIL_LINES,
    scan_stream,
)
from trainwreck.evidence.matcher import GENERIC_LITERALS, build_matcher, find_hits
from trainwreck.kb import load

TESTS = Path(__file__).parent.parent
# Lines no case log has: a signature whose literal holds "info" (not a bounded "inf"),
# and nan/inf as values or inside words.
EXTRA = [
    "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
    "INFO nano infinity infer",
    "step 7 grad_norm: inf",
    "loss = NaN",
    "x-nan,",
    "{'loss': 12.5, 'grad_norm': 3.1}",
]
_STANDALONE = re.compile(rb"(?<![a-z])(?:nan|inf)(?![a-z])")


@pytest.fixture(scope="module")
def keep() -> re.Pattern[str]:
    return load().keep_regex(analyzers.KEEP)


@pytest.fixture(scope="module")
def mixed_log() -> bytes:
    """Every real case log and evidence fixture, concatenated, with EXTRA in the middle."""
    paths = sorted([*TESTS.glob("cases/*/*.log"), *TESTS.glob("evidence/fixtures/*.log")])
    logs = [path.read_bytes().rstrip(b"\n") + b"\n" for path in paths]
    middle = len(logs) // 2
    quiet = "step 1 ok\n" * (CONTEXT_AFTER + 1)  # so no hit's context covers the next one
    extra = (quiet + "".join(f"{line}\n{quiet}" for line in EXTRA)).encode()
    return b"".join([*logs[:middle], extra, *logs[middle:]])


def _naive_hits(data: bytes, keep: re.Pattern[str]) -> set[int]:
    """Line numbers that the keep regex, a generic word or a bounded word makes hits."""
    hits = set()
    for number, raw in enumerate(data.split(b"\n"), start=1):
        lower = raw.lower()
        generic = any(word in lower for word in GENERIC_LITERALS) or _STANDALONE.search(lower)
        if generic or keep.search(decode_line(raw)):
            hits.add(number)
    return hits


def test_automaton_hits_equal_naive_per_line_check(mixed_log: bytes, keep: re.Pattern[str]) -> None:
    matcher = build_matcher(load().keep_parts(analyzers.KEEP))
    hits = find_hits(matcher, mixed_log, quota=len(mixed_log))
    numbers = {mixed_log.count(b"\n", 0, start) + 1 for start in hits.kept}
    assert not hits.sampled
    assert numbers == _naive_hits(mixed_log, keep)
    nccl = mixed_log.split(b"\n").index(EXTRA[0].encode()) + 1  # kept for its signature only
    assert nccl in numbers and nccl not in _naive_hits(mixed_log, re.compile("(?!)"))


def _first_repeats(hits: set[int], lines: list[bytes]) -> set[int]:
    """The hits left once identical lines past MAX_REPEATS are dropped."""
    seen: dict[bytes, int] = {}
    kept = set()
    for number in sorted(hits):
        seen[lines[number - 1]] = seen.get(lines[number - 1], 0) + 1
        if seen[lines[number - 1]] <= MAX_REPEATS:
            kept.add(number)
    return kept


@pytest.mark.parametrize("chunk_bytes", [997, 4096, 1 << 20])
def test_scan_keeps_hits_context_head_and_tail_exactly(
    mixed_log: bytes, keep: re.Pattern[str], chunk_bytes: int
) -> None:
    scan = scan_stream(
        io.BytesIO(mixed_log),
        build_matcher(load().keep_parts(analyzers.KEEP)),
        chunk_bytes=chunk_bytes,
    )
    total = mixed_log.count(b"\n")
    hits = _first_repeats(_naive_hits(mixed_log, keep), mixed_log.split(b"\n"))
    assert scan.repeats_dropped > 0  # the concatenated cases repeat some lines
    context = {hit + offset for hit in hits for offset in range(1, CONTEXT_AFTER + 1)}
    ends = set(range(1, HEAD_LINES + 1)) | set(range(total - TAIL_LINES + 1, total + 1))
    expected = {number for number in hits | context | ends if number <= total}
    assert scan.lines_read == total and not scan.truncated
    assert {line.line for line in scan.lines} == expected
    originals = mixed_log.split(b"\n")
    assert all(line.text == decode_line(originals[line.line - 1]) for line in scan.lines)


def test_context_owed_past_the_last_chunk_adds_no_line_beyond_the_end() -> None:
    """A hit on a chunk's last line whose context runs into a shorter final chunk."""
    first = b"step 1 ok\n" * 3 + b"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    data = first + b"done\n"
    scan = scan_stream(
        io.BytesIO(data), build_matcher(load().keep_parts(analyzers.KEEP)), chunk_bytes=len(first)
    )
    assert scan.lines_read == 5
    assert max(line.line for line in scan.lines) == 5
