"""`trainwreck memory` as users run it: a subprocess, real exit codes, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import assert_one_line_error, run

CONFIG = {
    "model_type": "llama",
    "hidden_size": 2048,
    "intermediate_size": 8192,
    "num_hidden_layers": 16,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "vocab_size": 128256,
    "tie_word_embeddings": True,
}


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    (tmp_path / "config.json").write_text(json.dumps(CONFIG))
    return tmp_path


def test_json_budget_carries_every_input_origin(model_dir: Path) -> None:
    result = run(
        "memory", "--model", str(model_dir), "--gpus", "A10G", "--batch-size", "8",
        "--seq-len", "4096", "--format", "json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    lines = {line["label"]: line for line in data["arithmetic"]["lines"]}
    assert "--batch-size 8" in lines["activations"]["source"]
    assert "--seq-len 4096" in lines["logits (loss)"]["source"]
    assert lines["logits (loss)"]["value"] == 8 * 4096 * 128256 * 4
    assert data["fits"] is False and any(fix["fits"] for fix in data["fixes"])
    assert data["architecture"]["params"] == 1_235_814_400  # tied embeddings counted once


def test_markdown_table_and_serving(model_dir: Path) -> None:
    result = run("memory", "--model", str(model_dir), "--serve", "--gpus", "L4")
    assert result.returncode == 0, result.stderr
    assert (
        "| KV per token | 2 × 16 layers × 8 KV heads × 64 head_dim × 2 B / TP 1 |" in result.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--batch-size", "0"], "--batch-size 0"),
        (["--gpus", "3xRTX-9090"], "unknown GPU"),
        (["--offload-params"], "--offload-params needs --zero 3"),
        (["--lora", "r=x"], "--lora r=x"),
        (["--serve"], "--serve needs --gpus"),
    ],
)
def test_bad_settings_are_one_line_exit_2(model_dir: Path, args: list[str], message: str) -> None:
    result = run("memory", "--model", str(model_dir), *args)
    assert_one_line_error(result)
    assert message in result.stderr


def test_unknown_model_and_broken_config_are_one_line_exit_2(tmp_path: Path) -> None:
    assert_one_line_error(run("memory", "--model", "nobody/no-such-model"))
    (tmp_path / "config.json").write_text("{not json")
    broken = run("memory", "--model", str(tmp_path))
    assert_one_line_error(broken)
    assert "cannot read a config.json" in broken.stderr
