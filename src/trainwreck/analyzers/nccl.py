"""NCCL watchdog timeouts: which collective, which sequence number, which rank lagged."""

from __future__ import annotations

import math
import re

from trainwreck.analyzers.progress import longest_phase
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, LogLine, SourceRef

FINDING_IDS: tuple[str, ...] = ("nccl.timeout",)

WATCHDOG = re.compile(
    r"WorkNCCL\((?:SeqNum=(?P<seq>\d+), )?OpType=(?P<op>\w+)[^)]*?Timeout\(ms\)=(?P<timeout>\d+)\)"
    r"(?: ran for (?P<ran>\d+) milliseconds)?"
)
_RANK_IN_TEXT = re.compile(r"\[Rank (\d+)\]")
# torch < 1.9 prints no SeqNum: WorkNCCL(OpType=..., Timeout(ms)=...)
KEEP: tuple[str, ...] = (r"WorkNCCL\((?:SeqNum=|OpType=)",)
# How far the slow phase overran the timeout is unknown without a progress bar, so a
# raised timeout is several times the one exceeded (PyTorch itself moved its NCCL
# default between 10 and 30 minutes, a factor of 3); with a bar, the phase's own
# estimate plus a quarter for a slower rerun. Rounded up to whole hours.
OVERRUN_FACTOR = 4
HEADROOM = 1.25
HOUR_S = 3600


def rank_of(line: LogLine) -> int | None:
    """The rank that printed a watchdog line: its prefix, else the `[Rank N]` in the text."""
    if line.rank is not None:
        return line.rank
    match = _RANK_IN_TEXT.search(line.text)
    return int(match.group(1)) if match else None


def analyze(evidence: Evidence) -> list[Finding]:
    """One `nccl.timeout` finding; names the rank(s) stuck on the oldest collective."""
    hits = [(line, match) for line in evidence.lines if (match := WATCHDOG.search(line.text))]
    if not hits:
        return []
    seq_by_rank: dict[int, int] = {}
    for line, match in hits:
        rank = rank_of(line)
        if rank is not None and match["seq"] is not None:
            seq_by_rank[rank] = min(int(match["seq"]), seq_by_rank.get(rank, 1 << 62))
    first_line, first = hits[0]
    timeout_ms = int(first["timeout"])
    values: dict[str, str | int | None] = {
        "optype": first["op"],
        "seqnum": int(first["seq"]) if first["seq"] is not None else None,
        "timeout_ms": timeout_ms,
        "timeout_s": timeout_ms // 1000,
        "ranks_reporting": len(seq_by_rank) or None,
    }
    seq = f" (SeqNum {first['seq']})" if first["seq"] is not None else ""
    summary = f"{first['op']}{seq} timed out after {timeout_ms / 60000:g} min"
    if len(set(seq_by_rank.values())) > 1:
        oldest = min(seq_by_rank.values())
        laggards = sorted(rank for rank, seq in seq_by_rank.items() if seq == oldest)
        values["lagging_ranks"] = ",".join(map(str, laggards))
        summary += f"; rank(s) {values['lagging_ranks']} stuck at SeqNum {oldest}, others further"
    lines = [
        ArithmeticLine(
            label="collective timeout",
            formula="Timeout(ms) / 60000",
            value=round(timeout_ms / 60000, 2),
            unit="min",
            source=f"{first_line.source}:{first_line.line}",
        ),
        *_raised(timeout_ms // 1000, evidence, values),
    ]
    arithmetic = Arithmetic(title="NCCL watchdog timeout", lines=tuple(lines), result=summary)
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


def _raised(
    timeout_s: int, evidence: Evidence, values: dict[str, str | int | None]
) -> list[ArithmeticLine]:
    """`raised_timeout_s`: a timeout above what the log shows the slow phase needs."""
    lines = []
    need = OVERRUN_FACTOR * timeout_s
    formula = f"{OVERRUN_FACTOR} x {timeout_s} s (how far the phase overran is not in the log)"
    phase = longest_phase(evidence.lines)
    if phase is not None and HEADROOM * phase[0] > need:
        seconds, line = phase
        values["phase_s"] = seconds
        lines.append(
            ArithmeticLine(
                label="slow phase (progress bar: elapsed + remaining)",
                formula="[elapsed<remaining]",
                value=seconds,
                unit="s",
                source=f"{line.source}:{line.line}",
            )
        )
        need, formula = math.ceil(HEADROOM * seconds), f"{HEADROOM} x {seconds} s"
    raised = max(HOUR_S, math.ceil(need / HOUR_S) * HOUR_S)
    values["raised_timeout_s"] = raised
    lines.append(
        ArithmeticLine(
            label="a timeout above that",
            formula=f"{formula}, rounded up to whole hours",
            value=raised,
            unit="s",
            source="computed",
        )
    )
    return lines
