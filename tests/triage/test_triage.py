"""`trainwreck triage` on fleets built from real case folders, and on failures run here."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import assert_one_line_error, run
from trainwreck.curation.cases import load_case
from trainwreck.triage import summarize, triage
from trainwreck.triage.discover import runs
from trainwreck.triage.render import to_json

CASES = Path(__file__).parents[1] / "cases"
# Three real cases of different classes (config error, OOM, NCCL timeout).
FLEET_CASES = (
    "accelerate-device-map-ddp-1368",
    "alpaca-llama13b-fsdp-a100-86",
    "automodel-ckpt-barrier-timeout-1038",
)
RUNS_PER_CASE = 3
LONG_NUMBER = re.compile(r"\d{3,}")


def _copy_case(case_id: str, run: Path, salt: int) -> None:
    """The case's evidence files, with every number of 3+ digits shifted by `salt`."""
    run.mkdir(parents=True)
    for source in load_case(CASES / case_id).inputs:
        text = source.read_text(encoding="utf-8", errors="replace")
        varied = LONG_NUMBER.sub(lambda m: str(int(m[0]) + salt), text)
        (run / source.name).write_text(varied, encoding="utf-8")


def _expected_top(case_id: str) -> str:
    expected = json.loads((CASES / case_id / "expected.json").read_text(encoding="utf-8"))
    return str(expected["hypotheses"][0]["id"])


def _fleet(root: Path, case_ids: tuple[str, ...]) -> dict[str, str]:
    """Run folders `root/<team>/job-N` copied from the cases; each run's expected top id."""
    truth = {}
    for index in range(len(case_ids) * RUNS_PER_CASE):
        case_id = case_ids[index % len(case_ids)]
        run_dir = root / f"team{index % 2}" / f"job-{index}"
        _copy_case(case_id, run_dir, salt=index * 7)
        truth[str(run_dir)] = _expected_top(case_id)
    return truth


def test_groups_equal_the_source_cases(tmp_path: Path) -> None:
    truth = _fleet(tmp_path, FLEET_CASES)
    result = triage([str(tmp_path)], jobs=1)
    assert result.runs == len(truth) and result.failed_count == 0
    found = {group.id: sorted(group.runs) for group in result.groups}
    wanted: dict[str, list[str]] = {}
    for run_dir, label in sorted(truth.items()):
        wanted.setdefault(label, []).append(run_dir)
    assert found == wanted
    assert all(group.count == RUNS_PER_CASE for group in result.groups)


def test_a_process_pool_gives_what_one_process_gives(tmp_path: Path) -> None:
    _fleet(tmp_path, FLEET_CASES)
    assert to_json(triage([str(tmp_path)], jobs=2)) == to_json(triage([str(tmp_path)], jobs=1))


def test_baseline_flags_only_the_new_group(tmp_path: Path) -> None:
    _fleet(tmp_path / "monday", FLEET_CASES[:2])
    _fleet(tmp_path / "tuesday", FLEET_CASES)
    before = run("triage", str(tmp_path / "monday"), "--format", "json", "-j", "1")
    assert before.returncode == 0, before.stderr
    baseline = tmp_path / "monday.json"
    baseline.write_text(before.stdout)
    after = run("triage", str(tmp_path / "tuesday"), "-f", "json", "--baseline", str(baseline))
    assert after.returncode == 0, after.stderr
    groups = json.loads(after.stdout)["groups"]
    assert {g["id"] for g in groups if g["new"]} == {_expected_top(FLEET_CASES[2])}
    assert len(groups) == len(FLEET_CASES)


def test_json_shape_and_markdown_table(tmp_path: Path) -> None:
    _fleet(tmp_path, FLEET_CASES[:1])
    done = run("triage", str(tmp_path), "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report) >= {"groups", "runs", "failed_to_read"} and report["runs"] == RUNS_PER_CASE
    (group,) = report["groups"]
    keys = {"id", "cause", "count", "runs", "first_seen", "last_seen", "fix", "frameworks", "new"}
    assert set(group) == {*keys, "confidence"} and group["count"] == RUNS_PER_CASE
    assert group["new"] is False and sum(group["confidence"].values()) == RUNS_PER_CASE
    table = run("triage", str(tmp_path))
    assert table.returncode == 0 and f"| `{group['id']}` |" in table.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("triage", "no/such/folder"),
        ("triage", ".", "--jobs", "0"),
        ("triage", ".", "--baseline", "pyproject.toml"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    assert_one_line_error(run(*args))


def test_an_empty_folder_has_no_runs(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert_one_line_error(run("triage", str(tmp_path)))


BROKEN_SCRIPT = """
import json

def load_labels(record):
    return record["labels"]

load_labels(json.loads('{"label": [%d]}'))
"""


def _failed_run(run_dir: Path, number: int) -> str:
    """A real failure: a small broken script run here, its stderr kept as the run's log."""
    run_dir.mkdir(parents=True)
    script = run_dir / "train.py"
    script.write_text(BROKEN_SCRIPT % number)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False
    )
    assert "KeyError" in done.stderr
    script.unlink()
    (run_dir / "train.log").write_text(done.stderr)
    return str(run_dir)


def test_ungrounded_runs_of_one_error_share_a_signature(tmp_path: Path) -> None:
    first = summarize(_failed_run(tmp_path / "a" / "job-1", 1))
    second = summarize(_failed_run(tmp_path / "b" / "job-22", 22))
    assert first.error is None and first.cause_id == second.cause_id
    assert first.cause_id.startswith(("sig:", "case:")), first.cause_id
    oom = tmp_path / "c"
    _copy_case(FLEET_CASES[1], oom, salt=0)
    assert summarize(str(oom)).cause_id != first.cause_id


def test_a_torchrun_attempt_folder_is_one_run(tmp_path: Path) -> None:
    """torchrun --log-dir writes <run>/<id>/attempt_0/<rank>/stderr.log: the ranks of one
    attempt are one run (here the real 2-rank job of tests/analyzers/fixtures/ranks)."""
    log = Path(__file__).parents[1] / "analyzers" / "fixtures" / "ranks" / "rank_raises.log"
    lines = log.read_text().splitlines(keepends=True)
    attempt = tmp_path / "job-17" / "3f2a" / "attempt_0"
    for rank in (0, 1):
        (attempt / str(rank)).mkdir(parents=True)
        own = [line.split(":", 1)[1] for line in lines if line.startswith(f"[default{rank}]")]
        (attempt / str(rank) / "stderr.log").write_text("".join(own))
    assert list(runs([str(tmp_path)])) == [str(attempt)]
    (group,) = triage([str(tmp_path)], jobs=1).groups
    assert group.id == "distributed-rank-raised-others-follow"
