"""Consolidated blocks are valid for their language and the run's framework.

Each observation from issue 18 is reproduced on a real case (tests/cases), then
one check walks every case report: Python blocks compile, no template leftovers,
no key set twice in one block.
"""

from __future__ import annotations

import ast
import re
import textwrap
from functools import cache
from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_case, find_cases, load_case
from trainwreck.evidence.configs import parse_argv
from trainwreck.model import ConfigBlock, Diagnosis
from trainwreck.report.markdown import to_markdown

CASES = Path(__file__).parents[1] / "cases"
# What a template leaves behind when the evidence did not fill it.
LEFTOVERS = re.compile(
    r"\bX\.Y\b|\bA\.B\.C\b|<your\b|\bthe (?:mat\d|model|checkpoint) (?:cols|rows|shape)\b"
    r"|\bthe param\b"
)
FENCE = re.compile(r"^( *)(`{3,})(\w*)\n(.*?)^\1\2$", re.S | re.M)


@cache
def diagnosed(case: str) -> Diagnosis:
    return diagnose_case(load_case(CASES / case))


def _block(case: str, fmt: str) -> ConfigBlock:
    return next(b for b in diagnosed(case).consolidated if b.format == fmt)


def test_a_number_a_regex_captured_is_a_number_in_the_block() -> None:
    """`torch.nn.Linear(in_features='2',)` was a string: the width the mat1 error printed."""
    linear = _block("pytorch-mm-shape-3", "python").text
    assert "in_features=2," in linear and "'2'" not in linear
    workers = _block("repro-dataloader-too-many-workers", "python").text
    assert "num_workers=2," in workers


def test_a_key_set_under_its_old_and_new_name_is_listed_once() -> None:
    """TRL's max_seq_length, renamed max_length, was listed twice with two defaults."""
    hypothesis = next(
        h
        for h in diagnosed("repro-nan-all-labels-masked").hypotheses
        if h.id == "all-labels-ignored-nan-loss"
    )
    for fix in hypothesis.fixes:
        paths = [change.path for change in fix.changes]
        assert len(paths) == len(set(paths)), paths
    (change,) = [c for f in hypothesis.fixes for c in f.changes if c.path.endswith("max_length")]
    assert change.default == 1024  # the default of max_length itself


@pytest.mark.parametrize(
    "line",
    [
        "`vllm serve Qwen/Qwen2-7B --gpu-memory-utilization 0.85`",
        "I ran `vllm serve m --gpu-memory-utilization 0.85` and it failed",
    ],
)
def test_a_markdown_backtick_is_not_part_of_a_flag_value(line: str) -> None:
    assert parse_argv(line)["gpu-memory-utilization"] == 0.85


def test_a_shell_command_substitution_is_kept() -> None:
    assert parse_argv("torchrun train.py --output_dir `date`")["output_dir"] == "`date`"


def test_a_framework_class_the_run_does_not_use_gets_no_block() -> None:
    """TrainingArguments(...) offered to a plain PyTorch loop and to DeepSpeed-Chat."""
    plain = diagnosed("repro-oom-lm-logits-upcast")
    assert "transformers" not in plain.context.frameworks
    assert not any("TrainingArguments(" in b.text for b in plain.consolidated)
    chat = diagnosed("deepspeed-chat-loss-scale-min-531").consolidated
    assert [b.text for b in chat] == ["ds_config.bf16.enabled: true"]
    hf = diagnosed("merlin-t4rec-eval-oom-693").consolidated  # an HF Trainer run keeps it
    assert "TrainingArguments(\n    eval_accumulation_steps=8,\n)" in [b.text for b in hf]
    # LLaMA-Factory: its config.json was written by transformers (transformers_version)
    factory = diagnosed("llamafactory-llama7b-zero2-v100-1221")
    assert factory.context.frameworks["transformers"] == "model config: transformers_version"
    # the fit-first fix: checkpointing (TrainingArguments) + optimizer offload (its ZeRO config)
    assert [b.format for b in factory.consolidated] == ["python", "keys"]
    peft = diagnosed("pytorch-int8-lora-dtype-16")  # PEFT trains through TrainingArguments
    assert [b.text for b in peft.consolidated] == ["TrainingArguments(\n    bf16=True,\n)"]


def test_multi_line_fix_code_keeps_its_indentation_under_the_list_item() -> None:
    markdown = to_markdown(diagnosed("repro-ddp-uneven-inputs-join"))
    assert (
        "   ```python\n"
        "   from torch.distributed.algorithms.join import Join\n"
        "   with Join([ddp_model]):\n"
        "       for batch in loader: ...\n"
        "   ```\n"
    ) in markdown


def test_python_fix_lines_are_fenced_as_python_not_bash() -> None:
    markdown = to_markdown(diagnosed("weathernext-tracer-array-conversion-41"))
    assert "   ```python\n   import jax.numpy as jnp" in markdown
    assert "```bash\n   import jax" not in markdown


def test_autocast_follows_the_model_device_not_a_hard_coded_cuda() -> None:
    """pytorch-int8-lora-dtype-16: no GPU in its evidence; the fix still ran `'cuda'`."""
    commands = [
        command
        for h in diagnosed("pytorch-int8-lora-dtype-16").hypotheses
        for fix in h.fixes
        for command in fix.commands
        if "autocast" in command
    ]
    assert commands, "the dtype-mismatch fix lost its autocast line"
    for command in commands:
        assert "autocast('cuda'" not in command
        assert "torch.autocast(next(model.parameters()).device.type" in command


def test_an_unfilled_shape_is_left_out_not_named_by_its_placeholder() -> None:
    """'whose parameter the param has a different shape (the model shape)'."""
    markdown = to_markdown(diagnosed("repro-state-dict-module-prefix"))
    assert "the param" not in markdown and "the model shape" not in markdown
    assert "whose parameter shapes differ from the saved ones: the model was built" in markdown


def test_a_version_the_evidence_does_not_give_is_not_written_as_x_y() -> None:
    """`pip install 'torch==X.Y.*'`: filled from the xFormers banner, dropped without it."""
    xformers = to_markdown(diagnosed("xformers-built-for-other-torch-8580"))
    flash = to_markdown(diagnosed("flash-attn-undefined-symbol-931"))
    assert "torch==X.Y" not in xformers and "torch==X.Y" not in flash
    built_for = re.search(r"pip install 'torch==(\d+\.\d+(?:\.\d+)?)'", xformers)
    assert built_for is not None, xformers


@cache
def every_report() -> dict[str, tuple[Diagnosis, str]]:
    return {
        case.path.name: (diagnosis, to_markdown(diagnosis))
        for case in find_cases(CASES)
        for diagnosis in [diagnose_case(case)]
    }


def test_every_python_block_of_every_case_report_compiles() -> None:
    for name, (diagnosis, markdown) in every_report().items():
        for match in FENCE.finditer(markdown):
            if match.group(3) == "python":
                code = textwrap.dedent(match.group(4))
                compile(code, f"{name}: fenced block", "exec")
        for block in diagnosis.consolidated:
            if block.format == "python":
                compile(block.text, f"{name}: consolidated block", "exec")


def test_no_case_report_holds_a_template_leftover() -> None:
    for name, (_, markdown) in every_report().items():
        found = LEFTOVERS.search(markdown)
        assert found is None, (name, markdown[found.start() - 80 : found.end() + 80])


def test_no_consolidated_block_sets_a_key_twice() -> None:
    for name, (diagnosis, _) in every_report().items():
        for block in diagnosis.consolidated:
            keys = _keys(block)
            assert len(keys) == len(set(keys)), (name, block.text)


def _keys(block: ConfigBlock) -> list[str]:
    """The keys a block sets, in its own syntax."""
    if block.format == "python":
        call = ast.parse(block.text, mode="eval").body
        assert isinstance(call, ast.Call)
        return [str(keyword.arg) for keyword in call.keywords]
    if block.format == "env":
        return [line.split("=", 1)[0] for line in block.text.splitlines()]
    if block.format in ("keys", "flags"):
        lines = [line for line in block.text.splitlines() if not line.startswith("#")]
        return [re.split(r"[:\s]", line, maxsplit=1)[0] for line in lines]
    return []
