"""Real 2- and 4-process torchrun jobs on the CPU (gloo), each broken one way on one rank.

Each job runs once per module under `torchrun --tee 3` with a 4 s process-group
timeout; the test diagnoses what torchrun printed (and, for two jobs, the ranks'
flight-recorder dumps written by PyTorch's own dump function) and checks that the
report names the rank and the collective. torchrun's own summary names the first
exit it noticed, which for three of these jobs is a rank that only waited.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.analyzers import collectives, ranks
from trainwreck.evidence.collect import collect
from trainwreck.model import Finding
from trainwreck.pipeline import diagnose

JOBS = Path(__file__).parent / "jobs"
JOB_LIMIT_S = 90  # four CPU processes importing torch on two cores, plus the 4 s timeout
# How often torchrun's agent looks at its workers: once one has failed it stops the rest,
# so a slow poll lets every rank that timed out print its own error first, as it does in a
# real job whose ranks time out together (the default 0.1 s raced them on a loaded CPU).
MONITOR_INTERVAL_S = "3"


def _torchrun(script: str, nproc: int, out: Path, dump_dir: Path | None = None) -> Path:
    """Run a job, return the file holding everything torchrun printed."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if dump_dir is not None:
        dump_dir.mkdir()
        env.update(FR_DUMP_DIR=str(dump_dir), TORCH_FR_BUFFER_SIZE="100")
    log = out / f"{script}.log"
    with log.open("wb") as handle:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "torch.distributed.run",
                "--nproc-per-node",
                str(nproc),
                "--standalone",
                "--monitor-interval",
                MONITOR_INTERVAL_S,
                "--tee",
                "3",
                str(JOBS / f"{script}.py"),
            ],
            stdout=handle,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=JOB_LIMIT_S,
            check=False,
        )
    assert result.returncode != 0, "every job here is broken; it must fail"
    return log


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    out = tmp_path_factory.mktemp("torchrun")
    return {
        "rank_raises": [str(_torchrun("rank_raises", 2, out))],
        "hung_barrier": [str(_torchrun("hung_barrier", 2, out))],
        "straggler": [str(_torchrun("straggler", 4, out))],
        "skip_collective": [
            str(_torchrun("skip_collective", 4, out, out / "fr_skip")),
            str(out / "fr_skip"),
        ],
        "skip_last": [str(_torchrun("skip_last", 2, out, out / "fr_last")), str(out / "fr_last")],
    }


def _finding(paths: list[str], analyzer: object, finding_id: str) -> Finding:
    evidence = collect(paths)
    found = {f.id: f for f in analyzer.analyze(evidence)}  # type: ignore[attr-defined]
    assert finding_id in found, f"{finding_id} not in {sorted(found)}"
    return found[finding_id]


def test_the_rank_that_raised_leads(runs: dict[str, list[str]]) -> None:
    finding = _finding(runs["rank_raises"], ranks, "ranks.raised_first")
    assert finding.values["rank"] == 1
    assert finding.values["exception"] == "ValueError"
    assert str(finding.values["site"]).endswith("rank_raises.py:13")
    assert "all_reduce" in finding.title  # what rank 0 was left waiting in
    top = diagnose(runs["rank_raises"]).hypotheses[0]
    assert top.id == "distributed-rank-raised-others-follow"
    assert "rank 1 raised ValueError" in top.root_cause


def test_a_rank_stuck_before_the_barrier_is_named(runs: dict[str, list[str]]) -> None:
    finding = _finding(runs["hung_barrier"], ranks, "ranks.not_arrived")
    assert finding.values["rank"] == "1"
    assert finding.values["collective"] == "barrier"
    assert finding.values["waiting_ranks"] == "0"
    assert finding.values["timeout_s"] == 4
    top = diagnose(runs["hung_barrier"]).hypotheses[0]
    assert top.id == "gloo-collective-timeout"
    assert "rank 1 never reached barrier" in top.root_cause


def test_a_straggler_among_four_is_named(runs: dict[str, list[str]]) -> None:
    finding = _finding(runs["straggler"], ranks, "ranks.not_arrived")
    assert finding.values["rank"] == "3"
    assert finding.values["collective"] == "all_reduce"
    assert finding.values["waiting_ranks"] == "0,1,2"
    assert "rank 3 loading the next shard" in finding.title  # its last line
    assert diagnose(runs["straggler"]).hypotheses[0].id == "gloo-collective-timeout"


def test_a_skipped_collective_shows_as_ranks_in_different_collectives(
    runs: dict[str, list[str]],
) -> None:
    log = runs["skip_collective"][:1]
    finding = _finding(log, ranks, "ranks.collective_mismatch")
    assert finding.values["rank"] == "2"
    assert (finding.values["collective"], finding.values["other_collective"]) == (
        "barrier",
        "all_reduce",
    )
    top = diagnose(log).hypotheses[0]
    assert top.id == "distributed-collective-mismatch"
    assert top.confidence == "medium"


def test_flight_recorder_dumps_name_the_diverging_collective(runs: dict[str, list[str]]) -> None:
    finding = _finding(runs["skip_collective"][1:], collectives, "collective.mismatch")
    assert finding.values["seq"] == 3
    assert finding.values["rank"] == "2"
    assert finding.values["collective"] == "barrier"
    assert str(finding.values["other_site"]).endswith("skip_collective.py:19")


def test_flight_recorder_dumps_name_the_collective_a_rank_never_issued(
    runs: dict[str, list[str]],
) -> None:
    finding = _finding(runs["skip_last"][1:], collectives, "collective.not_called")
    assert (finding.values["rank"], finding.values["seq"]) == ("1", 3)
    assert finding.values["collective"] == "all_reduce"
    assert str(finding.values["site"]).endswith("skip_last.py:26")


def test_per_rank_log_files_carry_their_rank(tmp_path: Path) -> None:
    """torchrun --log-dir writes <run>/attempt_0/<rank>/stderr.log with no prefix in it."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--nproc-per-node",
            "2",
            "--standalone",
            "--monitor-interval",
            MONITOR_INTERVAL_S,
            "--log-dir",
            str(tmp_path),
            "--tee",
            "3",
            str(JOBS / "rank_raises.py"),
        ],
        capture_output=True,
        env=env,
        timeout=JOB_LIMIT_S,
        check=False,
    )
    finding = _finding([str(tmp_path)], ranks, "ranks.raised_first")
    assert finding.values["rank"] == 1
