"""Every generated verification script is complete: it compiles, has no stub bodies,
every filled value is a concrete literal with its source, and the CLI writes it."""

from __future__ import annotations

import ast
import json
from functools import cache
from pathlib import Path

import pytest

from helpers import assert_one_line_error, run
from trainwreck.curation.cases import diagnose_case, find_cases
from trainwreck.fixes.scripts import kind_of
from trainwreck.model import Verification

CASES = Path(__file__).parents[1] / "cases"
PLACEHOLDERS = ("TODO", "FIXME", "<your", "X.Y", "...")


@cache
def verifications() -> dict[str, Verification]:
    """The top hypothesis's script of every real case that has one."""
    found = {}
    for case in find_cases(CASES):
        diagnosis = diagnose_case(case)
        top = diagnosis.hypotheses[0] if diagnosis.hypotheses else None
        if top is not None and top.verification is not None:
            found[case.path.name] = top.verification
    return found


def _parameters(tree: ast.Module) -> ast.Dict:
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PARAMETERS":
            assert isinstance(node.value, ast.Dict)
            return node.value
    raise AssertionError("no PARAMETERS block")


def test_every_template_is_used_on_the_real_cases() -> None:
    kinds = {v.kind for v in verifications().values()}
    assert kinds == {
        "training-steps",
        "peak-memory",
        "load-test",
        "collective-probe",
        "package-probe",
        "data-throughput",
        "rerun",
        "rerun-hang",
        "rerun-throughput",
        "rerun-metric",
    }


def test_generated_scripts_compile_with_no_stub_bodies() -> None:
    for name, verification in verifications().items():
        compile(verification.script, name, "exec")
        tree = ast.parse(verification.script)
        for node in ast.walk(tree):
            assert not isinstance(node, ast.Pass), name
            assert not (isinstance(node, ast.Constant) and node.value is Ellipsis), name
        assert "TODO" not in verification.script, name
        assert "def main(args: argparse.Namespace) -> int:" in verification.script, name
        assert verification.script.rstrip().endswith("sys.exit(run(main))"), name


def test_every_filled_value_is_concrete_and_commented() -> None:
    for name, verification in verifications().items():
        tree = ast.parse(verification.script)
        block = _parameters(tree)
        values = ast.literal_eval(block)
        lines = verification.script.splitlines()
        for key, value in values.items():
            assert isinstance(value, str | int | float | bool), (name, key)
            assert not any(mark in str(value) for mark in PLACEHOLDERS), (name, key, value)
        for key_node in block.keys:
            assert key_node is not None
            above = lines[key_node.lineno - 2].strip()
            assert above.startswith("# ") and len(above) > 4, (name, above)


def test_the_warmup_fix_is_applied_and_sourced() -> None:
    """The divergence case's script lowers the logged rate by the fix's factor."""
    script = verifications()["repro-divergence-lr-rising-warmup"].script
    values = ast.literal_eval(_parameters(ast.parse(script)))
    assert values["warmup_ratio"] == 0.03  # the fix's warmup over 3% of the steps
    assert "fix: TrainingArguments.warmup_" in script


def test_memory_script_carries_the_budget_the_arithmetic_computed() -> None:
    script = verifications()["alpaca-llama7b-fsdp-v100-223"].script
    values = ast.literal_eval(_parameters(ast.parse(script)))
    expected = json.loads((CASES / "alpaca-llama7b-fsdp-v100-223" / "expected.json").read_text())
    budget = next(f for f in expected["findings"] if f["id"] == "memory.budget")["values"]
    assert values["budget_gib"] == budget["capacity_gib"]
    assert values["predicted_gib"] == budget["estimated_gib"]
    assert values["gradient_checkpointing"] is True  # the fix's change
    assert values["model"] == "/data/alpaca/stanford_alpaca/llama_hf"


def test_crashes_get_a_rerun_and_wrong_outputs_a_metric_rerun() -> None:
    """A crash is rerun to see it fail again; a wrong output to read its metric again."""
    cases = {c.path.name: c for c in find_cases(CASES)}
    crash = diagnose_case(cases["pytorch-inplace-add-4"]).hypotheses[0]
    assert (crash.category, kind_of(crash)) == ("crash", "rerun")
    assert crash.verification is not None and crash.verification.kind == "rerun"
    wrong = diagnose_case(cases["repro-argmax-over-batch-dim"]).hypotheses[0]
    assert (wrong.category, kind_of(wrong)) == ("wrong_output", "rerun-metric")
    assert wrong.verification is not None and wrong.verification.kind == "rerun-metric"


CASE = CASES / "transformers-tokenizers-pin-4836"


def test_cli_script_writes_the_file_and_json_carries_it(tmp_path: Path) -> None:
    out = tmp_path / "verify.py"
    result = run("diagnose", str(CASE / "train.log"), "--format", "json", "--script", str(out))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    verification = report["hypotheses"][0]["verification"]
    assert verification["kind"] == "package-probe"
    assert out.read_text() == verification["script"]
    assert "tokenizers>=0.22.0,<=0.23.0" in verification["script"]
    assert f"wrote {out}" in result.stderr


def test_cli_script_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "verify.py"
    out.write_text("mine\n")
    result = run("diagnose", str(CASE / "train.log"), "--script", str(out))
    assert_one_line_error(result)
    assert "--force" in result.stderr
    assert out.read_text() == "mine\n"
    forced = run("diagnose", str(CASE / "train.log"), "--script", str(out), "--force")
    assert forced.returncode == 0, forced.stderr
    assert out.read_text().startswith("#!/usr/bin/env python3")


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_text_reports_point_at_the_script(fmt: str) -> None:
    result = run("diagnose", str(CASE / "train.log"), "--format", fmt)
    assert "Verify" in result.stdout
    assert "--script verify.py" in result.stdout
