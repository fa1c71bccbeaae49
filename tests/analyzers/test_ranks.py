"""The ranks analyzer on real torchrun outputs (tests/analyzers/fixtures/ranks/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.analyzers import ranks
from trainwreck.evidence.collect import collect
from trainwreck.evidence.lines import rank_of_path
from trainwreck.model import Finding

FIXTURES = Path(__file__).parent / "fixtures" / "ranks"
CASES = Path(__file__).parents[1] / "cases"


def _findings(*paths: Path) -> list[Finding]:
    return ranks.analyze(collect([str(path) for path in paths]))


def _only(paths: list[Path], finding_id: str) -> Finding:
    found = _findings(*paths)
    assert [f.id for f in found] == [finding_id]
    return found[0]


def _keep(tmp_path: Path, name: str, wanted: tuple[str, ...]) -> Path:
    """A copy of a fixture with only the lines of some ranks (no launcher lines)."""
    lines = (FIXTURES / name).read_text().splitlines(keepends=True)
    path = tmp_path / name
    path.write_text("".join(line for line in lines if line.startswith(wanted)))
    return path


def test_the_raising_rank_is_named_and_the_waiting_rank_is_knock_on() -> None:
    finding = _only([FIXTURES / "rank_raises.log"], "ranks.raised_first")
    assert finding.values == {
        "rank": 1,
        "exception": "ValueError",
        "site": "/job/rank_raises.py:13",
        "knock_on_ranks": "0",
    }
    assert "rank 0 failed waiting in all_reduce (/job/rank_raises.py:14)" in finding.title


def test_a_rank_with_no_error_never_reached_the_barrier() -> None:
    finding = _only([FIXTURES / "hung_barrier.log"], "ranks.not_arrived")
    assert finding.values["rank"] == "1"
    assert finding.values["site"] == "/job/hung_barrier.py:13"
    assert "ended by the launcher's signal" in finding.title  # torchrun's SIGTERM summary
    assert "'training done'" in finding.title  # rank 1's last line


def test_the_straggler_is_the_one_rank_of_four_that_did_not_wait() -> None:
    finding = _only([FIXTURES / "straggler.log"], "ranks.not_arrived")
    assert (finding.values["rank"], finding.values["waiting_ranks"]) == ("3", "0,1,2")


def test_the_odd_rank_out_is_the_one_in_another_collective() -> None:
    finding = _only([FIXTURES / "skip_collective.log"], "ranks.collective_mismatch")
    assert finding.values["rank"] == "2"
    assert finding.values["site"] == "/job/skip_collective.py:21"
    assert finding.values["other_site"] == "/job/skip_collective.py:19"


def test_every_rank_waiting_in_one_collective_names_nobody(tmp_path: Path) -> None:
    """Ranks 0-2 of the straggler job, without rank 3 and the launcher: all of them waited."""
    path = _keep(tmp_path, "straggler.log", ("[default0]", "[default1]", "[default2]"))
    assert _findings(path) == []


def test_one_rank_alone_names_nobody(tmp_path: Path) -> None:
    """Rank 0's own log of a job: the other ranks are not in the evidence, not absent."""
    path = _keep(tmp_path, "hung_barrier.log", ("[default0]",))
    assert _findings(path) == []


def test_per_rank_files_without_the_silent_rank_name_nobody(tmp_path: Path) -> None:
    """Separate files per rank: rank 1's missing file is missing evidence, not a hang."""
    for rank in (0, 2):
        (tmp_path / str(rank)).mkdir()
    lines = (FIXTURES / "straggler.log").read_text().splitlines(keepends=True)
    for rank in (0, 2):
        own = [line.split(":", 1)[1] for line in lines if line.startswith(f"[default{rank}]")]
        (tmp_path / "attempt_0" / str(rank)).mkdir(parents=True)
        (tmp_path / "attempt_0" / str(rank) / "stderr.log").write_text("".join(own))
    assert _findings(tmp_path / "attempt_0") == []


def test_a_shared_log_names_the_rank_that_printed_no_timeout() -> None:
    """Real thread (case llamafactory-tokenize-nccl-timeout-2424): ranks 1-3 time out in
    ALLREDUCE while rank 0 is still tokenizing the dataset."""
    finding = _only(
        [CASES / "llamafactory-tokenize-nccl-timeout-2424" / "train.log"], "ranks.not_arrived"
    )
    assert finding.values["rank"] == "0"
    assert finding.values["collective"] == "allreduce"
    assert finding.values["timeout_s"] == 1800


@pytest.mark.parametrize(
    ("path", "rank"),
    [
        ("logs/run_1/attempt_0/3/stderr.log", 3),
        ("run/train_rank_12.txt", 12),
        ("out/rank-0.out", 0),
        ("ranking.log", None),
        ("logs/rank1/train.log", None),
    ],
)
def test_rank_of_a_per_rank_file(path: str, rank: int | None) -> None:
    assert rank_of_path(path) == rank


def test_nccl_summaries_name_the_rank_that_never_enqueued_the_work() -> None:
    finding = _only([FIXTURES / "nccl_progress.log"], "ranks.not_arrived")
    assert finding.values["rank"] == "0"
    assert finding.values["seq"] == 78
    assert finding.values["collective"] == "broadcast"  # WorkNCCL(SeqNum=78, OpType=BROADCAST)
    assert finding.values["waiting_ranks"] == "1,2,3"


def test_nccl_summaries_with_every_rank_level_name_nobody(tmp_path: Path) -> None:
    """All ranks enqueued the work they time out in: a slow collective, not a missing one."""
    text = (FIXTURES / "nccl_progress.log").read_text().replace("work: 77, last", "work: 79, last")
    path = tmp_path / "level.log"
    path.write_text(text)
    assert _findings(path) == []
