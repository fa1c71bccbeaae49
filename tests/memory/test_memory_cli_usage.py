"""`trainwreck memory` as a newcomer tries it: the --help examples, GPU names as people
write them, tensor-parallel sizes vLLM refuses, and amounts in a unit that shows them."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from test_memory_cli import CONFIG  # a 32-head / 8-KV-head llama, as in the issue

from helpers import assert_one_line_error, run


def _help_examples() -> list[list[str]]:
    """Every `trainwreck memory ...` command in --help, with its continuation lines joined."""
    text = run("memory", "--help").stdout.replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith("trainwreck memory --")]


def test_help_has_examples() -> None:
    assert len(_help_examples()) >= 3


@pytest.mark.parametrize("example", _help_examples(), ids=lambda args: " ".join(args[:3]))
def test_every_help_example_runs(example: list[str]) -> None:
    result = run(*example)
    assert result.returncode in (0, 1), result.stderr  # 1: a budget that does not fit
    assert "## " in result.stdout


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    (tmp_path / "config.json").write_text(json.dumps(CONFIG))
    return tmp_path


@pytest.mark.parametrize(("tp", "refused"), [(2, False), (3, True), (4, False), (8, False)])
def test_tensor_parallel_must_divide_the_heads(model_dir: Path, tp: int, refused: bool) -> None:
    result = run(
        "memory", "--model", str(model_dir), "--serve", "--gpus", f"{tp}xH100-SXM",
        "--tensor-parallel", str(tp),
    )  # fmt: skip
    if refused:
        assert_one_line_error(result)
        assert "32 attention heads" in result.stderr and "--tensor-parallel 3" in result.stderr
    else:
        assert result.returncode in (0, 1), result.stderr


def test_kv_heads_are_replicated_when_tp_exceeds_them(model_dir: Path) -> None:
    """TP 16 on 8 KV heads: vLLM keeps one KV head per GPU (replicated), not half of one."""
    result = run(
        "memory", "--model", str(model_dir), "--serve", "--gpus", "16xH100-SXM",
        "--tensor-parallel", "16", "--format", "json",
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    lines = {line["label"]: line for line in json.loads(result.stdout)["arithmetic"]["lines"]}
    assert lines["KV per token"]["value"] == 2 * 16 * 1 * 64 * 2


def test_kv_per_token_is_shown_in_a_unit_that_shows_it(model_dir: Path) -> None:
    result = run("memory", "--model", str(model_dir), "--serve", "--gpus", "L4")
    row = next(line for line in result.stdout.splitlines() if line.startswith("| KV per token"))
    assert "0.00 GiB" not in row
    assert "| 32.00 KiB |" in row  # 2 × 16 × 8 × 64 × 2 B = 32,768 B


@pytest.mark.parametrize(
    ("written", "resolved", "count"),
    [("H100", "H100-SXM", 1), ("3xH100", "H100-SXM", 3), ("A100", "A100-40GB", 1),
     ("4090", "RTX-4090", 1), ("2x a100", "A100-40GB", 2)],
)  # fmt: skip
def test_gpu_names_as_people_write_them(
    model_dir: Path, written: str, resolved: str, count: int
) -> None:
    result = run("memory", "--model", str(model_dir), "--gpus", written, "--format", "json")
    assert result.returncode in (0, 1), result.stderr
    gpu = json.loads(result.stdout)["gpu"]
    assert (gpu["name"], gpu["count"]) == (resolved, count)


def test_an_ambiguous_gpu_name_says_the_variant_it_assumed(model_dir: Path) -> None:
    result = run("memory", "--model", str(model_dir), "--gpus", "3xH100")
    assert re.search(r"\[assumed\] 'H100' read as H100-SXM", result.stdout), result.stdout
    exact = run("memory", "--model", str(model_dir), "--gpus", "H100-SXM")
    assert "[assumed] 'H100-SXM'" not in exact.stdout
