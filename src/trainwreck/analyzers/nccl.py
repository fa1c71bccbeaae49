"""NCCL watchdog timeouts: which collective, which sequence number, which rank lagged."""

from __future__ import annotations

import re

from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, LogLine, SourceRef

_WATCHDOG = re.compile(
    r"WorkNCCL\(SeqNum=(?P<seq>\d+), OpType=(?P<op>\w+)[^)]*?Timeout\(ms\)=(?P<timeout>\d+)\)"
    r"(?: ran for (?P<ran>\d+) milliseconds)?"
)
_RANK_IN_TEXT = re.compile(r"\[Rank (\d+)\]")
KEEP: tuple[str, ...] = (r"WorkNCCL\(SeqNum=",)


def _rank(line: LogLine) -> int | None:
    if line.rank is not None:
        return line.rank
    match = _RANK_IN_TEXT.search(line.text)
    return int(match.group(1)) if match else None


def analyze(evidence: Evidence) -> list[Finding]:
    """One `nccl.timeout` finding; names the rank(s) stuck on the oldest collective."""
    hits = [(line, match) for line in evidence.lines if (match := _WATCHDOG.search(line.text))]
    if not hits:
        return []
    seq_by_rank: dict[int, int] = {}
    for line, match in hits:
        rank = _rank(line)
        if rank is not None:
            seq_by_rank[rank] = min(int(match["seq"]), seq_by_rank.get(rank, 1 << 62))
    first_line, first = hits[0]
    timeout_ms = int(first["timeout"])
    values: dict[str, str | int | None] = {
        "optype": first["op"],
        "seqnum": int(first["seq"]),
        "timeout_ms": timeout_ms,
        "ranks_reporting": len(seq_by_rank) or None,
    }
    summary = f"{first['op']} (SeqNum {first['seq']}) timed out after {timeout_ms / 60000:g} min"
    if len(set(seq_by_rank.values())) > 1:
        oldest = min(seq_by_rank.values())
        laggards = sorted(rank for rank, seq in seq_by_rank.items() if seq == oldest)
        values["lagging_ranks"] = ",".join(map(str, laggards))
        summary += f"; rank(s) {values['lagging_ranks']} stuck at SeqNum {oldest}, others further"
    arithmetic = Arithmetic(
        title="NCCL watchdog timeout",
        lines=(
            ArithmeticLine(
                label="collective timeout",
                formula="Timeout(ms) / 60000",
                value=round(timeout_ms / 60000, 2),
                unit="min",
                source=f"{first_line.source}:{first_line.line}",
            ),
        ),
        result=summary,
    )
    refs = tuple(
        SourceRef(source=line.source, line=line.line, text=line.text) for line, _ in hits[:3]
    )
    return [
        Finding(
            id="nccl.timeout",
            title="NCCL collective timed out",
            category="hang",
            summary=summary,
            evidence=refs,
            values=values,
            arithmetic=arithmetic,
        )
    ]
