"""The `triage` and `compare_runs` tools over stdio from the SDK's real client.

Triage runs on folders copied from real cases (their expected top pattern is the
truth each group must equal); compare_runs on two runs made from a real case's
DeepSpeed config, the BAD one with one key changed; paths outside --allow, and a
run folder that is a symlink out of it, are refused.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp_session import CASES, structured, text_of, with_server

from trainwreck.curation.cases import load_case
from trainwreck.mcp_server import fleet
from trainwreck.mcp_server.inputs import Policy

# Three real cases of different classes (config error, OOM, NCCL timeout).
FLEET_CASES = (
    "accelerate-device-map-ddp-1368",
    "alpaca-llama13b-fsdp-a100-86",
    "automodel-ckpt-barrier-timeout-1038",
)
RUNS_PER_CASE = 2
# A real DeepSpeed ZeRO-2 config (LlamaFactory issue 1221) and the key BAD changes.
CONFIG_CASE = "llamafactory-llama7b-zero2-v100-1221"
CHANGED_KEY, GOOD_STAGE, BAD_STAGE = "zero_optimization.stage", 2, 3


def _expected_top(case_id: str) -> str:
    expected = json.loads((CASES / case_id / "expected.json").read_text(encoding="utf-8"))
    return str(expected["hypotheses"][0]["id"])


def _fleet(root: Path, case_ids: tuple[str, ...]) -> dict[str, list[str]]:
    """`root/job-N` folders holding copies of the cases' inputs; the runs per expected top."""
    truth: dict[str, list[str]] = {}
    for index in range(len(case_ids) * RUNS_PER_CASE):
        case_id = case_ids[index % len(case_ids)]
        run = root / f"job-{index}"
        run.mkdir(parents=True)
        for source in load_case(CASES / case_id).inputs:
            shutil.copy(source, run / source.name)
        truth.setdefault(_expected_top(case_id), []).append(str(run))
    return truth


def _config_runs(root: Path) -> tuple[Path, Path]:
    """GOOD: the case's inputs as they are; BAD: the same with ZeRO stage 2 made 3."""
    runs = []
    for name, stage in (("good", GOOD_STAGE), ("bad", BAD_STAGE)):
        run = root / name
        run.mkdir(parents=True)
        for source in load_case(CASES / CONFIG_CASE).inputs:
            shutil.copy(source, run / source.name)
        config = json.loads((CASES / CONFIG_CASE / "ds_config.json").read_text(encoding="utf-8"))
        assert config["zero_optimization"]["stage"] == GOOD_STAGE
        config["zero_optimization"]["stage"] = stage
        (run / "ds_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
        runs.append(run)
    return runs[0], runs[1]


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("allowed")
    outside = tmp_path_factory.mktemp("outside")
    monday = _fleet(root / "monday", FLEET_CASES[:2])
    tuesday = _fleet(root / "tuesday", FLEET_CASES)
    good, bad = _config_runs(root / "compare")
    (outside / "job-x").mkdir()
    (outside / "job-x" / "train.log").write_text("RuntimeError: the secret outside\n")
    (root / "linked").mkdir()
    (root / "linked" / "job-0").symlink_to(outside / "job-x")

    async def body(session: ClientSession) -> dict[str, Any]:
        first = await session.call_tool("triage", {"paths": [str(root / "monday")]})
        baseline = structured(first)
        return {
            "monday": first,
            "tuesday": await session.call_tool(
                "triage", {"paths": [str(root / "tuesday")], "baseline_json": baseline}
            ),
            "compare": await session.call_tool(
                "compare_runs", {"good": str(good), "bad": str(bad)}
            ),
            "triage outside": await session.call_tool("triage", {"paths": [str(outside)]}),
            "triage link": await session.call_tool("triage", {"paths": [str(root / "linked")]}),
            "compare outside": await session.call_tool(
                "compare_runs", {"good": str(good), "bad": str(outside / "job-x")}
            ),
            "text baseline": await session.call_tool(
                "triage", {"paths": [str(root / "tuesday")], "baseline_json": json.dumps(baseline)}
            ),
            "bad baseline": await session.call_tool(
                "triage", {"paths": [str(root / "monday")], "baseline_json": '{"runs": 3}'}
            ),
        }

    found = with_server("--allow", str(root))(body)
    return {**found, "truth": (monday, tuesday)}


def test_triage_groups_copied_real_cases_by_their_confirmed_cause(calls: dict[str, Any]) -> None:
    monday, tuesday = calls["truth"]
    for day, truth in (("monday", monday), ("tuesday", tuesday)):
        data = structured(calls[day])
        assert data["runs"] == sum(map(len, truth.values())) and data["failed_count"] == 0
        assert {g["id"]: sorted(g["runs"]) for g in data["groups"]} == {
            top: sorted(runs) for top, runs in truth.items()
        }
        assert all(f"| `{top}`" in text_of(calls[day]) for top in truth)
        assert "capped" not in data
    for given in ("tuesday", "text baseline"):  # the previous answer's object, or its text
        new = {g["id"] for g in structured(calls[given])["groups"] if g["new"]}
        assert new == {_expected_top(FLEET_CASES[2])}


def test_compare_runs_ranks_the_one_changed_key(calls: dict[str, Any]) -> None:
    changes = structured(calls["compare"])["changes"]
    assert [(c["kind"], c["key"], c["before"], c["after"]) for c in changes] == [
        ("config", CHANGED_KEY, GOOD_STAGE, BAD_STAGE)
    ]
    assert changes[0]["pages"] and changes[0]["score"] > 0
    assert f"`{CHANGED_KEY}` | {GOOD_STAGE} -> {BAD_STAGE}" in text_of(calls["compare"])


@pytest.mark.parametrize(
    ("call", "says"),
    [
        ("triage outside", "outside the allowed paths"),
        ("triage link", "outside the allowed paths"),
        ("compare outside", "outside the allowed paths"),
        ("bad baseline", "baseline_json is not a triage JSON"),
    ],
)
def test_refusals_are_one_line_tool_errors(calls: dict[str, Any], call: str, says: str) -> None:
    result = calls[call]
    assert result.is_error
    message = text_of(result)
    assert len(message.splitlines()) == 1 and says in message, message
    assert "the secret outside" not in message


def test_triage_stops_at_the_cap_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth = _fleet(tmp_path, FLEET_CASES)
    monkeypatch.setattr(fleet, "MAX_TRIAGE_RUNS", 2)
    answer = fleet.triage(Policy.from_options([str(tmp_path)], online=False), [str(tmp_path)])
    assert answer.data["runs"] == 2 and answer.data["capped"]["limit"] == 2
    assert answer.markdown.startswith("Capped: only the first 2 runs")
    diagnosed = sorted(run for group in answer.data["groups"] for run in group["runs"])
    assert diagnosed == sorted(str(tmp_path / f"job-{n}") for n in range(2))
    assert sum(map(len, truth.values())) > 2
