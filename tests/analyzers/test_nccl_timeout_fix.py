"""The process-group timeout fix reads the printed timeout and raises it past what the log needs.

Observed (issue 18): `ddp_timeout: 1800 → 7200` printed beside arithmetic that read
the actual timeout as 600,000 ms. The before value is the evidence's (600 s), and
the after value exceeds what the evidence shows the slow phase needs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck import diagnose
from trainwreck.analyzers.nccl import HEADROOM, HOUR_S, OVERRUN_FACTOR
from trainwreck.analyzers.progress import clock_seconds, longest_phase
from trainwreck.model import Change, Diagnosis, LogLine

CASES = Path(__file__).parents[1] / "cases"
# the watchdog line of tests/cases/automodel-ckpt-barrier-timeout-1038 at a 10-minute timeout
WATCHDOG_600S = (
    "[rank2]:[E109 22:46:25.933527530 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum=493, OpType=ALLGATHER, NumelIn=1, "
    "NumelOut=4, Timeout(ms)=600000) ran for 600044 milliseconds before timing out.\n"
)


def _raised_timeout(report: Diagnosis) -> Change:
    """The process-group timeout change: `ddp_timeout` in a Trainer run, the
    `init_process_group` argument in a script that only shows torch."""
    return next(
        change
        for hypothesis in report.hypotheses
        for fix in hypothesis.fixes
        for change in fix.changes
        if change.path.endswith(("ddp_timeout", "init_process_group.timeout"))
    )


def test_before_is_the_printed_timeout_and_after_exceeds_it(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(WATCHDOG_600S, encoding="utf-8")
    change = _raised_timeout(diagnose([str(log)]))
    assert change.before == 600
    assert isinstance(change.after, int) and change.after >= OVERRUN_FACTOR * 600
    assert change.after % HOUR_S == 0


def test_a_progress_bar_sets_what_the_raised_timeout_must_exceed() -> None:
    # the tokenizer bar on the timeout line: 29:55 elapsed + 4:48:08 remaining = 19,083 s,
    # longer than the old fix's 10800 s
    report = diagnose([str(CASES / "llamafactory-tokenize-nccl-timeout-2424")])
    change = _raised_timeout(report)
    assert change.before == 1800
    assert isinstance(change.after, int) and change.after >= HEADROOM * 19083
    table = next(a for a in report.arithmetic if a.title == "NCCL watchdog timeout")
    assert any(line.value == 19083 for line in table.lines)


def test_progress_bar_clock_and_the_longest_phase() -> None:
    assert clock_seconds("4:48:08") == 17288 and clock_seconds("29:55") == 1795
    lines = [
        LogLine(source="a.log", line=1, text="map: 5%| 1/20 [00:10<03:10, 1.0 it/s]"),
        LogLine(source="a.log", line=2, text="map: 0%| 0/20 [00:00<?, ? it/s]"),
        LogLine(source="a.log", line=3, text="tok: 9%| 9/99 [29:55<4:48:08, 155.57 examples/s]"),
    ]
    found = longest_phase(lines)
    assert found is not None and found[0] == 19083 and found[1].line == 3
    assert longest_phase(lines[1:2]) is None


@pytest.mark.parametrize(
    ("phase", "raised"),
    [
        ("31:59", HOUR_S),  # 1919 s x 1.25 below 4 x 600 s: the overrun rule
        ("48:00", HOUR_S),  # 2880 s x 1.25 = 3600 s exactly: one hour
        ("50:00", 2 * HOUR_S),  # 3000 s x 1.25 = 3750 s: the next whole hour
    ],
)
def test_raised_timeout_at_the_progress_bar_threshold(
    tmp_path: Path, phase: str, raised: int
) -> None:
    log = tmp_path / "train.log"
    minutes, seconds = phase.split(":")
    bar = f"Running tokenizer: 50%| 1/2 [00:00<{minutes}:{seconds}, 1.0 examples/s]"
    log.write_text(bar + WATCHDOG_600S, encoding="utf-8")
    assert _raised_timeout(diagnose([str(log)])).after == raised


def test_the_pre_seqnum_watchdog_line_is_read_too(tmp_path: Path) -> None:
    # torch < 1.9 prints WorkNCCL(OpType=..., Timeout(ms)=...) without a SeqNum
    log = tmp_path / "train.log"
    log.write_text(
        "[E ProcessGroupNCCL.cpp:587] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1808040 milliseconds before "
        "timing out.\n",
        encoding="utf-8",
    )
    change = _raised_timeout(diagnose([str(log)]))
    assert change.before == 1800 and change.after == OVERRUN_FACTOR * 1800
