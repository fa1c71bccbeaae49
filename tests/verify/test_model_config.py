"""`trainwreck check config.json`: misspelled keys, head arithmetic and RoPE types.

The real configs are the bundled Hugging Face model configs (src/trainwreck/memory/models)
and the case folders' config.json files; each planted mistake edits one of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import run
from trainwreck.verify import check_files

MODELS = Path(__file__).parents[2] / "src/trainwreck/memory/models"
REAL = sorted(MODELS.glob("*.json")) + sorted(
    (Path(__file__).parents[1] / "cases").glob("*/config.json")
)
LLAMA = MODELS / "meta-llama--Llama-3.1-8B.json"


@pytest.mark.parametrize("transformers", ["4.36.2", "4.46.3", "5.0.0", None])
def test_real_model_configs_have_no_false_alarm(transformers: str | None) -> None:
    versions = {"transformers": transformers} if transformers else {}
    reports = check_files([str(p) for p in REAL], versions=versions, use_live=False)
    assert len(reports) == len(REAL) >= 30
    assert {r.kind for r in reports} == {"model-config"}
    assert [(r.path, r.problems) for r in reports if r.problems] == []


def _planted(tmp_path: Path, edit: dict[str, Any], drop: tuple[str, ...] = ()) -> str:
    config = json.loads(LLAMA.read_text())
    for key in drop:
        config.pop(key)
    config.update(edit)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config, indent=2))
    return str(path)


def _problems(path: str, transformers: str = "4.46.3") -> list[tuple[str, str, str | None]]:
    (report,) = check_files([path], versions={"transformers": transformers}, use_live=False)
    return [(p.kind, p.key, p.suggestion) for p in report.problems]


@pytest.mark.parametrize(
    ("edit", "drop", "expected"),
    [
        (
            {"num_attention_head": 32},
            ("num_attention_heads",),
            ("num_attention_head", "num_attention_heads"),
        ),
        ({"rms_norm_epsilon": 1e-5}, ("rms_norm_eps",), ("rms_norm_epsilon", "rms_norm_eps")),
        (
            {"max_position_embedding": 8192},
            ("max_position_embeddings",),
            ("max_position_embedding", "max_position_embeddings"),
        ),
        (
            {"tie_word_embedding": False},
            ("tie_word_embeddings",),
            ("tie_word_embedding", "tie_word_embeddings"),
        ),
    ],
    ids=["heads", "eps", "positions", "tie"],
)
def test_misspelled_key_is_caught_with_the_right_name(
    tmp_path: Path, edit: dict[str, Any], drop: tuple[str, ...], expected: tuple[str, str]
) -> None:
    assert _problems(_planted(tmp_path, edit, drop)) == [("unknown-key", *expected)]


def test_head_arithmetic_contradictions(tmp_path: Path) -> None:
    kv = _problems(_planted(tmp_path, {"num_key_value_heads": 6}))
    assert kv == [("contradiction", "num_key_value_heads", "a divisor of 32")]
    split = _problems(_planted(tmp_path, {"hidden_size": 4100}))
    assert [k for _, k, _ in split] == ["num_attention_heads"]
    # an explicit head_dim (as Gemma 2 sets) makes the split unnecessary
    assert _problems(_planted(tmp_path, {"hidden_size": 4100, "head_dim": 128})) == []


def test_rope_type_is_checked_against_the_release(tmp_path: Path) -> None:
    scaling = json.loads(LLAMA.read_text())["rope_scaling"]
    typo = _planted(tmp_path, {"rope_scaling": {**scaling, "rope_type": "llama_3"}})
    assert _problems(typo) == [("choice", "rope_scaling.rope_type", "llama3")]
    # before 4.43 every model validated its own types: no release-wide list to check against
    assert _problems(typo, "4.36.2") == []
    alias = _planted(tmp_path, {"rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})
    assert _problems(alias) == []  # Qwen2-VL's own name, rewritten by its config


def test_cli_reports_the_line_and_exits_one(tmp_path: Path) -> None:
    path = _planted(tmp_path, {"num_attention_head": 32}, ("num_attention_heads",))
    result = run("check", path, "--version", "transformers=4.46.3", "--no-live")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "`num_attention_heads`" in result.stdout and "line " in result.stdout
