"""`trainwreck check` as users run it: exit codes, one-line parse errors, JSON output."""

from __future__ import annotations

import json
from pathlib import Path

from verify_corpus import CONFIGS

from helpers import run

GOOD = CONFIGS / "trl--accelerate_configs_multi_gpu.yaml"


def test_clean_file_exits_zero() -> None:
    result = run("check", str(GOOD), "--version", "accelerate=1.8.1", "--no-live")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No problems found." in result.stdout


def test_problems_exit_one_with_suggestion(tmp_path: Path) -> None:
    config = tmp_path / "args.yaml"
    config.write_text("output_dir: out\nlearning_rat: 1.0e-4\n", encoding="utf-8")
    result = run("check", str(config), "--framework", "transformers", "--version", "4.46.3")
    assert result.returncode == 1
    assert "line 2" in result.stdout and "`learning_rate`" in result.stdout


def test_trailing_comma_names_the_line_and_other_files_are_checked(tmp_path: Path) -> None:
    broken = tmp_path / "ds.json"
    broken.write_text('{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2,},\n}\n')
    result = run("check", str(broken), str(GOOD), "--version", "accelerate=1.8.1", "--no-live")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"trainwreck: error: {broken}:3: not valid JSON: Expecting property name enclosed in "
        "double quotes (a trailing comma?)"
    ]
    assert "No problems found." in result.stdout  # the good file was still checked


def test_json_format_and_bare_version_needs_framework(tmp_path: Path) -> None:
    result = run("check", str(GOOD), "--format", "json", "--version", "accelerate=1.8.1")
    body = json.loads(result.stdout)
    assert body["files"][0]["kind"] == "accelerate" and body["errors"] == 0
    bad = run("check", str(GOOD), "--version", "1.8.1")
    assert bad.returncode == 2 and "NAME=1.8.1" in bad.stderr
