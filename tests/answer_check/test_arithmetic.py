# ruff: noqa: RUF001, RUF002, RUF003
# (answers write × for multiplication; the lines below are answers.)
"""The arithmetic rules of check-answer on real model configs and our own reports' lines.

Each tolerance is tested from both sides: a result just inside passes, just outside fails.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from trainwreck.answer_check.arithmetic import (
    RELATIVE_TOLERANCE,
    ArithmeticProblem,
    arithmetic_problems,
)
from trainwreck.memory import Serving, Training, estimate
from trainwreck.memory.config import MODELS_DIR
from trainwreck.memory.gpus import resolve_gpu
from trainwreck.memory.render import markdown

CASES = Path(__file__).resolve().parent.parent / "cases"
GIB = 2**30
# Qwen2.5-7B-Instruct: 28 layers, 28 attention heads, 4 KV heads, head_dim 128 (3584 / 28)
QWEN_KV_BYTES = 2 * 28 * 4 * 128 * 32768 * 2  # 1.75 GiB at 32,768 tokens in bf16


def config(name: str) -> Mapping[str, Any]:
    values: Mapping[str, Any] = json.loads((MODELS_DIR / name).read_text(encoding="utf-8"))
    return values


QWEN = config("Qwen--Qwen2.5-7B-Instruct.json")
LLAMA3 = config("meta-llama--Llama-3.1-8B.json")  # 32 layers, 32 heads, 8 KV heads
LLAMA2 = config("meta-llama--Llama-2-7b-hf.json")  # 32 heads, 32 KV heads: no GQA


def check(*lines: str, configs: tuple[Mapping[str, Any], ...] = ()) -> list[ArithmeticProblem]:
    return arithmetic_problems(list(enumerate(lines, start=1)), configs)


def rules(problems: list[ArithmeticProblem]) -> list[str]:
    return [problem.rule for problem in problems]


def test_the_real_configs_are_what_the_tests_assume() -> None:
    assert (QWEN["num_attention_heads"], QWEN["num_key_value_heads"]) == (28, 4)
    assert (QWEN["num_hidden_layers"], QWEN["hidden_size"]) == (28, 3584)
    assert (LLAMA3["num_attention_heads"], LLAMA3["num_key_value_heads"]) == (32, 8)
    assert LLAMA2["num_attention_heads"] == LLAMA2["num_key_value_heads"] == 32


# kv-from-attention-heads


def test_a_gqa_kv_answer_that_used_attention_heads_is_caught_with_the_right_number() -> None:
    line = (
        "KV cache at 32,768 tokens: 2 × 28 layers × 28 heads × 128 head_dim × 32,768 tokens "
        "× 2 B = 12.25 GiB (config.json:num_hidden_layers, num_attention_heads, head_dim)"
    )
    [problem] = check(line, configs=(QWEN,))
    assert problem.rule == "kv-from-attention-heads"
    assert problem.expected == "1.75 GiB"
    assert "56.00 KiB per token" in problem.message  # 2 × 28 × 4 × 128 × 2 B
    assert "num_key_value_heads 4 < num_attention_heads 28" in problem.message


def test_the_same_answer_with_kv_heads_passes() -> None:
    line = (
        "KV cache at 32,768 tokens: 2 × 28 layers × 4 KV heads × 128 head_dim × 32,768 tokens "
        "× 2 B = 1.75 GiB (config.json:num_key_value_heads)"
    )
    assert check(line, configs=(QWEN,)) == []


def test_attention_heads_that_equal_the_layer_count_are_told_apart() -> None:
    """Llama 3.1 8B has 32 layers and 32 heads: one 32 is the layers, a second the heads."""
    wrong = "KV: 2 × 32 × 32 × 128 × 8192 tokens × 2 bytes = 4 GiB (config.json)"
    right = "KV: 2 × 32 × 8 × 128 × 8192 tokens × 2 bytes = 1 GiB (config.json)"
    [problem] = check(wrong, configs=(LLAMA3,))
    assert (problem.rule, problem.expected) == ("kv-from-attention-heads", "1.00 GiB")
    assert check(right, configs=(LLAMA3,)) == []


def test_attention_heads_named_instead_of_counted_are_caught() -> None:
    line = (
        "KV cache = 2 × num_hidden_layers × num_attention_heads × head_dim × seq_len × 2 B "
        "= 12.25 GiB (config.json)"
    )
    [problem] = check(line, configs=(QWEN,))
    assert (problem.rule, problem.expected) == ("kv-from-attention-heads", "1.75 GiB")


def test_hidden_size_in_a_kv_computation_is_the_attention_heads_too() -> None:
    line = "KV per token = 2 × 28 layers × 3584 hidden × 2 B = 392 KiB (config.json:hidden_size)"
    [problem] = check(line, configs=(QWEN,))
    assert (problem.rule, problem.expected) == ("kv-from-attention-heads", "56.00 KiB")
    assert "hidden_size 3584" in problem.message


def test_attention_heads_are_right_on_a_model_without_gqa() -> None:
    line = "KV per token = 2 × 32 layers × 32 heads × 128 head_dim × 2 B = 512 KiB (config.json)"
    assert check(line, configs=(LLAMA2,)) == []


def test_without_a_config_nothing_says_the_model_is_gqa() -> None:
    line = "KV = 2 × 28 × 28 × 128 × 32,768 × 2 B = 12.25 GiB (config.json)"
    assert check(line) == []


# arithmetic-wrong: the written expression against its result


@pytest.mark.parametrize("sign", [1, -1])
def test_a_result_just_inside_the_tolerance_passes_and_just_outside_fails(sign: int) -> None:
    def line(factor: float) -> str:
        stated = QWEN_KV_BYTES * (1 + sign * factor * float(RELATIVE_TOLERANCE)) / GIB
        return f"KV = 2 × 28 × 4 × 128 × 32768 × 2 B = {stated:.4f} GiB (config.json)"

    assert check(line(0.9), configs=(QWEN,)) == []
    [problem] = check(line(1.1), configs=(QWEN,))
    assert (problem.rule, problem.expected) == ("arithmetic-wrong", "1.7500 GiB")


def test_a_result_rounded_to_its_last_digit_passes() -> None:
    """1.8 GiB is 1.75 GiB written to one decimal: 2.9% off, within half a unit of 0.1."""
    assert check("KV = 2 × 28 × 4 × 128 × 32768 × 2 B ≈ 1.8 GiB (config.json)") == []
    assert rules(check("KV = 2 × 28 × 4 × 128 × 32768 × 2 B ≈ 1.9 GiB (config.json)")) == [
        "arithmetic-wrong"
    ]


@pytest.mark.parametrize(("stated", "passes"), [("16", True), ("15", False), ("17", False)])
def test_whole_number_products_must_match_exactly(stated: str, passes: bool) -> None:
    line = f"effective batch: 4 × 4 = {stated} (`TrainingArguments.gradient_accumulation_steps`)"
    found = [(problem.rule, problem.expected) for problem in check(line)]
    assert found == ([] if passes else [("arithmetic-wrong", "16")])


@pytest.mark.parametrize(("stated", "passes"), [("157", True), ("156", False), ("158", False)])
def test_steps_per_epoch_round_up(stated: str, passes: bool) -> None:
    """ceil(10,000 / (8 × 4 × 2)) = ceil(156.25): a partial last step still runs."""
    line = (
        f"10,000 samples / (8 per device × 4 accumulation × 2 GPUs) = {stated} steps per epoch "
        "(--per_device_train_batch_size 8, --gradient_accumulation_steps 4)"
    )
    found = [(problem.rule, problem.expected) for problem in check(line)]
    assert found == ([] if passes else [("arithmetic-wrong", "157")])


def test_gb_for_gib_is_read_either_way_but_a_wrong_value_is_not() -> None:
    for stated in ("14 GB", "13.04 GB"):  # 14e9 bytes, read decimal or as GiB
        assert check(f"weights: 7B params × 2 bytes = {stated} ([assumed] bf16)") == []
    [problem] = check("weights: 7B params × 2 bytes = 12 GB ([assumed] bf16)")
    assert (problem.rule, problem.expected) == ("arithmetic-wrong", "14.00 GB")


def test_a_byte_width_that_is_not_its_dtypes_is_caught() -> None:
    right = "weights: 7,615,616,512 params × 4 B (fp32) = 28.37 GiB (config.json sizes)"
    wrong = "weights: 7,615,616,512 params × 2 B (fp32) = 14.19 GiB (config.json sizes)"
    assert check(right) == []
    [problem] = check(wrong)
    assert (problem.rule, problem.expected) == ("arithmetic-wrong", "28.37 GiB")
    assert "fp32 takes 4 B" in problem.message


def test_adam_fp32_states_below_two_moments_per_parameter_are_caught() -> None:
    right = "AdamW fp32 states: 7,615,616,512 params × 2 × 4 B = 56.74 GiB (--optim adamw_torch)"
    wrong = "AdamW fp32 states: 7,615,616,512 params × 2 × 2 B = 28.37 GiB (--optim adamw_torch)"
    assert check(right) == []
    [problem] = check(wrong)
    assert (problem.rule, problem.expected) == ("arithmetic-wrong", "56.74 GiB")


def test_adam_with_a_master_copy_needs_twelve_bytes_per_parameter() -> None:
    right = "Adam + fp32 master copy: 7,615,616,512 params × (8 B + 4 B) = 85.11 GiB (--zero 3)"
    wrong = "Adam + fp32 master copy: 7,615,616,512 params × 8 B = 56.74 GiB (--zero 3)"
    assert check(right) == []
    [problem] = check(wrong)
    assert (problem.rule, problem.expected) == ("arithmetic-wrong", "85.11 GiB")


# arithmetic-unsourced


def test_an_unsourced_computation_is_flagged_and_a_sourced_one_passes() -> None:
    bare = "KV cache = 2 × 28 × 4 × 128 × 32768 × 2 B = 1.75 GiB"
    assert rules(check(bare)) == ["arithmetic-unsourced"]
    for source in (
        "(config.json:num_key_value_heads)",
        "(from the error)",
        "(train.log:12)",
        "[kb:vllm-kv-cache-too-small]",
        # a confirmed case record, as the report cites a similar failure's measured numbers
        "[case:r16D-pytorch-dataloader-workers-memory-growth-repro]",
        "(--max-model-len 32768)",
        "([assumed] bf16)",
        'as the log says "Maximum concurrency for 32768 tokens"',
    ):
        assert check(f"{bare} {source}") == [], source


def test_computed_counts_as_a_source_only_in_a_table_source_column() -> None:
    table = ["| term | formula | value | source |", "|---|---|---|---|"]
    assert check(*table, "| effective batch | `4 × 4` | 16 | `computed` |") == []
    [problem] = check(*table, "| effective batch | `4 × 4` | 16 | |")
    assert (problem.line, problem.rule) == (3, "arithmetic-unsourced")
    assert rules(check("effective batch 4 × 4 = 16 (computed)")) == ["arithmetic-unsourced"]


def test_code_blocks_are_not_the_answers_arithmetic() -> None:
    assert check("```python", "peak = 4 * 4 = 15", "```") == []


# our own reports


def report_lines(path: Path) -> list[tuple[int, str]]:
    return list(enumerate(path.read_text(encoding="utf-8").splitlines(), start=1))


def test_every_case_report_passes() -> None:
    reports = sorted(CASES.glob("*/expected.md"))
    assert len(reports) > 100
    for report in reports:
        assert arithmetic_problems(report_lines(report), []) == [], report


@pytest.mark.parametrize(
    ("case", "written", "planted", "expected"),
    [
        # 6,738,415,616 × (8 B states + 4 B fp32 master copy) + 291 step counters × 4 B
        ("llamafactory-llama7b-zero2-v100-1221", "| 75.31 GiB |", "| 70.31 GiB |", "75.31 GiB"),
        # 13,015,864,320 × (8 B states) + 363 step counters × 4 B / 2 GPUs (ZeRO-3)
        ("alpaca-llama13b-fsdp-a100-86", "| 48.49 GiB |", "| 96.97 GiB |", "48.49 GiB"),
        # b·s·vocab × 4 B = 1×2048×32,000×4
        ("alpaca-llama7b-fsdp-v100-223", "| 250.00 MiB |", "| 256.00 MiB |", "250.00 MiB"),
    ],
)
def test_a_case_reports_arithmetic_is_recomputed(
    case: str, written: str, planted: str, expected: str
) -> None:
    """Our lines pass because they reproduce: the same line with a planted result fails."""
    lines = report_lines(CASES / case / "expected.md")
    at = next(n for n, (_, text) in enumerate(lines) if written in text and "×" in text)
    broken = [*lines[:at], (lines[at][0], lines[at][1].replace(written, planted)), *lines[at + 1 :]]
    [problem] = arithmetic_problems(broken, [])
    assert (problem.line, problem.rule, problem.expected) == (
        lines[at][0],
        "arithmetic-wrong",
        expected,
    )


def test_our_serving_budget_passes_and_with_attention_heads_fails() -> None:
    gpu = resolve_gpu("H100")
    assert gpu is not None
    report = markdown(estimate("Qwen/Qwen2.5-7B-Instruct", Serving(max_model_len=32768), gpu))
    lines = list(enumerate(report.splitlines(), start=1))
    assert arithmetic_problems(lines, [QWEN]) == []
    planted = report.replace("× 4 KV heads ×", "× 28 KV heads ×").replace(
        "| 56.00 KiB |", "| 392.00 KiB |"
    )
    assert planted != report
    [problem] = arithmetic_problems(list(enumerate(planted.splitlines(), start=1)), [QWEN])
    assert (problem.rule, problem.expected) == ("kv-from-attention-heads", "56.00 KiB")


def test_our_training_budget_passes() -> None:
    """Pure bf16 AdamW keeps its states in bf16 (4 B per parameter): not an Adam slip."""
    report = markdown(estimate("meta-llama/Llama-2-7b-hf", Training(batch_size=4)))
    assert "(4 B states)" in report
    assert arithmetic_problems(list(enumerate(report.splitlines(), start=1)), [LLAMA2]) == []


def test_text_that_is_no_arithmetic_and_a_config_without_sizes_never_raise() -> None:
    nasty = (
        "1e99999999 × 2 = 3",
        "(" * 5000 + "1" + ")" * 5000 + " × 2 = 2",
        " × ".join(["99999999999999999999999999999999"] * 2000) + " = 1",
        "1 / 0 = 3",
        "ceil( = 3",
        "| a | b |",
    )
    assert all(problem.line <= len(nasty) for problem in check(*nasty))
    wrong_kv = "KV = 2 × 28 × 28 × 128 × 32768 × 2 B = 12.25 GiB (config.json)"
    [problem] = check(wrong_kv, configs=({"model_type": "qwen2"}, QWEN))
    assert (problem.rule, problem.expected) == ("kv-from-attention-heads", "1.75 GiB")
