"""The first collective where ranks' flight recorders disagree (real dumps from a one-rank
process; the 4-rank jobs are in tests/distributed/test_torchrun_jobs.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import one_rank_dumps
from trainwreck.analyzers import collectives
from trainwreck.evidence.collect import collect

RING = 3  # entries each dump keeps: older ones are dropped, as in a long run


def test_ring_buffers_are_compared_from_the_newest_first_entry(tmp_path: Path) -> None:
    """Two real dumps of one process, taken one all_reduce apart, stand for two ranks:
    "rank 0" kept #2-#4, "rank 1" #3-#5. #2 is not in rank 1's buffer any more, which
    is no divergence; #5 is one rank 0 never issued."""
    steps = ["all_reduce"] * 4 + ["dump:fr_trace_rank_0", "all_reduce", "dump:fr_trace_rank_1"]
    one_rank_dumps(tmp_path, *steps, buffer=RING)
    (finding,) = collectives.analyze(collect([str(tmp_path)]))
    assert finding.id == "collective.not_called"
    assert (finding.values["rank"], finding.values["seq"]) == ("0", 5)
    assert "rank 0's last was #4" in finding.title


def test_identical_dumps_show_no_divergence(tmp_path: Path) -> None:
    one_rank_dumps(tmp_path, "all_reduce", "dump:fr_trace_rank_0", "dump:fr_trace_rank_1")
    assert collectives.analyze(collect([str(tmp_path)])) == []


def test_one_dump_alone_compares_nothing(tmp_path: Path) -> None:
    one_rank_dumps(tmp_path, "all_reduce", "dump:fr_trace_rank_0")
    assert collectives.analyze(collect([str(tmp_path)])) == []
