"""The consistency checks: they find planted violations, and none in what trainwreck emits.

Every report of the real-case set and 200 reports from generated evidence (real
KB signature lines beside configs that already hold, or overshoot, the
recommended values) must pass `fixes.consistency.check`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from generated_runs import generated_runs

from trainwreck.curation.cases import diagnose_case, find_cases
from trainwreck.curation.lint import _directions
from trainwreck.fixes.consistency import check, not_concrete, pointless, repeated_flags
from trainwreck.fixes.patch import patched_files
from trainwreck.kb import KnowledgeBase, load
from trainwreck.model import Change, ConfigBlock, Diagnosis, Fix
from trainwreck.pipeline import diagnose

CASES = find_cases(Path(__file__).parents[1] / "cases")
GENERATED_REPORTS = 200
MIN_PATCHED = GENERATED_REPORTS // 20


@cache
def knowledge() -> KnowledgeBase:
    return load()


def assert_consistent(diagnosis: Diagnosis) -> None:
    """The test helper: fail with every violation the checks find."""
    violations = check(diagnosis, knowledge())
    assert not violations, "\n".join(map(str, violations))


def _with_top_fix(
    diagnosis: Diagnosis, *changes: Change, commands: tuple[str, ...] = ()
) -> Diagnosis:
    top = diagnosis.hypotheses[0]
    fix = Fix(action="planted", changes=changes, commands=commands)
    return diagnosis.model_copy(update={"hypotheses": (top.model_copy(update={"fixes": (fix,)}),)})


@cache
def _real_diagnosis() -> Diagnosis:
    case = next(c for c in CASES if c.path.name == "vllm-limo-preemption-29")
    return diagnose_case(case, knowledge())


def test_every_real_case_report_is_consistent() -> None:
    for case in CASES:
        assert_consistent(diagnose_case(case, knowledge()))


def test_generated_reports_are_consistent_and_their_patches_parse(tmp_path: Path) -> None:
    checked = patched = 0
    for run in generated_runs(knowledge(), tmp_path, count=GENERATED_REPORTS):
        diagnosis = diagnose([str(run.directory)], kb=knowledge())
        assert_consistent(diagnosis)
        for file in patched_files(diagnosis):
            assert file.changes and file.patched != file.original
            patched += 1
        checked += 1
    assert checked == GENERATED_REPORTS
    # The generator puts the fix's keys in the user's files, so patches are made; how many
    # depends on which pages the shuffled cycle visits (19 of 200 runs with 456 pages, 20 with
    # 453), so the floor asks for patches at all rather than for one page mix's count.
    assert patched >= MIN_PATCHED


def test_a_planted_flag_twice_is_found() -> None:
    diagnosis = _with_top_fix(
        _real_diagnosis(), commands=("vllm serve m --max-num-seqs 64 --max_num_seqs=32",)
    )
    assert [v.rule for v in check(diagnosis, knowledge())] == ["flag-twice"]
    assert repeated_flags("torchrun --nproc_per_node 2 train.py --lr 1") == []


def test_a_planted_placeholder_none_and_prose_are_found() -> None:
    planted = (
        Change(path="cli.vllm serve --max-model-len", after="<your_value>"),
        Change(path="env.CUDA_HOME", after=None),
        Change(path="cli.torchrun --nproc_per_node", after="number of visible GPUs"),
        Change(path="TrainingArguments.optim", after="TODO"),
    )
    rules = [v.rule for v in check(_with_top_fix(_real_diagnosis(), *planted), knowledge())]
    assert rules == ["not-concrete"] * 4
    assert not_concrete("expandable_segments:True") is None
    assert not_concrete("len(tokenizer)") is None


def test_a_value_set_twice_and_a_no_op_are_found() -> None:
    planted = (
        Change(path="cli.vllm serve --max-num-seqs", before="128", after=128),
        Change(path="TrainingArguments.bf16", before=False, after=True, default=True),
        Change(path="SFTConfig.max_length", after=1024),
        Change(path="cli.--max-length", after=2048),
    )
    rules = sorted(v.rule for v in check(_with_top_fix(_real_diagnosis(), *planted), knowledge()))
    assert rules == ["no-op", "no-op", "two-values"]


def test_a_raise_against_a_too_high_cause_is_found() -> None:
    # vllm-preemption-kv-cache: too many sequences at once, so --max-num-seqs must go down.
    planted = Change(path="cli.vllm serve --max-num-seqs", before=64, after=128)
    (violation,) = check(_with_top_fix(_real_diagnosis(), planted), knowledge())
    assert violation.rule == "direction" and "needs it lower" in violation.detail
    assert pointless(True, 1, None, None) is None  # a boolean is not the number 1


def test_two_values_across_consolidated_blocks_are_found() -> None:
    blocks = (
        ConfigBlock(format="env", text="export NCCL_P2P_DISABLE=1"),
        ConfigBlock(format="flags", text="# add to your `vllm serve` command\n--max-num-seqs 64"),
        ConfigBlock(format="python", text="SFTConfig(\n    max_num_seqs=32,\n)"),
    )
    diagnosis = _real_diagnosis().model_copy(update={"consolidated": blocks})
    (violation,) = check(diagnosis, knowledge())
    assert violation.rule == "two-values" and "max_num_seqs" in violation.detail


def test_the_engine_drops_a_change_the_config_already_has_or_overshoots(tmp_path: Path) -> None:
    log = next(c for c in CASES if c.path.name == "vllm-limo-preemption-29").inputs
    for current, expected in ((128, "already 128"), (64, "needs it lower")):
        command = tmp_path / f"serve{current}.sh"
        command.write_text(
            f"vllm serve Qwen/Qwen2.5-0.5B-Instruct --max-num-seqs {current} --port 8000\n"
        )
        diagnosis = diagnose([*map(str, log), str(command)], kb=knowledge())
        top_fix = diagnosis.hypotheses[0].fixes[0]
        assert not any(c.path.endswith("--max-num-seqs") for c in top_fix.changes)
        assert any("--max-num-seqs" in w and expected in w for w in diagnosis.warnings)
        assert_consistent(diagnosis)


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_lint_checks_a_stated_direction_against_the_literals(direction: str) -> None:
    pattern = knowledge().get("adam-beta2-too-high-loss-spikes")
    assert pattern is not None and _directions(pattern) == []
    fix = pattern.fixes[0]
    change = fix.changes[0].model_copy(update={"direction": direction})
    edited = pattern.model_copy(update={"fixes": (fix.model_copy(update={"changes": (change,)}),)})
    problems = _directions(edited)
    assert problems == ([] if direction == "lower" else [problems[0]])
    unstated = change.model_copy(update={"direction": None, "before": "{beta2}"})
    edited = pattern.model_copy(
        update={"fixes": (fix.model_copy(update={"changes": (unstated,)}),)}
    )
    assert _directions(edited) == [
        "numeric change of TrainingArguments.adam_beta2 needs a direction (lower|higher|either)"
    ]


def test_a_rewritten_command_with_a_flag_twice_is_found() -> None:
    block = ConfigBlock(
        format="command",
        text="vllm serve m --max-num-seqs 64 --port 8000 \\\n  --max-num-seqs=128",
        source="serve.sh",
        notes=("--max-num-seqs — was: 256 → now: 64",),
    )
    diagnosis = _real_diagnosis().model_copy(update={"consolidated": (block,)})
    (violation,) = check(diagnosis, knowledge())
    assert (violation.rule, violation.detail) == ("flag-twice", "--max_num_seqs")
