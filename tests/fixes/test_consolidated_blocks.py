"""Consolidated blocks are valid for their language and the run's framework.

Each observation from issue 18 is reproduced on a real case (tests/cases), then
one check walks every case report: Python blocks compile, no template leftovers,
no key set twice in one block.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from trainwreck.evidence.configs import parse_argv
from trainwreck.kb.cases import diagnose_case, load_case
from trainwreck.model import ConfigBlock, Diagnosis

CASES = Path(__file__).parents[1] / "cases"
# What a template leaves behind when the evidence did not fill it.
LEFTOVERS = re.compile(
    r"\bX\.Y\b|\bA\.B\.C\b|<your\b|\bthe (?:mat\d|model|checkpoint) (?:cols|rows|shape)\b"
    r"|\bthe param\b|\{[a-z_]+\}"
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
