"""`trainwreck diagnose ... --patch DIR` as users run it, on real cases.

The copies land in DIR only, parse, and differ from the originals in exactly the
fix's settings; `changes.diff` holds those lines; nothing is overwritten without
--force, and a copy is never written over an input.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from helpers import assert_one_line_error, run
from trainwreck.curation.cases import Case, diagnose_case, find_cases
from trainwreck.evidence.configs import Values, parse_argv, parse_config_text
from trainwreck.fixes.consolidate import file_format, read_user_files
from trainwreck.fixes.formats.command import command_blocks, one_line
from trainwreck.fixes.patch import patched_files
from trainwreck.model import InputFile

CASES = find_cases(Path(__file__).parents[1] / "cases")
YAML_CONFIG = Path(__file__).parent / "configs" / "axolotl-llama3-lora-8b.yml"


def _case(name: str) -> Case:
    return next(case for case in CASES if case.path.name == name)


def _values(path: Path) -> Values:
    text = path.read_text(encoding="utf-8")
    if file_format(path.name, text) == "command":
        return {
            k: v
            for s, e in command_blocks(text)
            for k, v in parse_argv(one_line(text[s:e])).items()
        }
    values = parse_config_text(path.name, text)
    assert values is not None
    return values


def _as_inputs(case: Case) -> list[InputFile]:
    return [InputFile(path=str(path), kind="log") for path in case.inputs]


def _fingerprint(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_real_cases_with_config_files_get_exactly_their_fix_patched(tmp_path: Path) -> None:
    with_files = [case for case in CASES if read_user_files(_as_inputs(case))]
    patched_cases = [case for case in with_files if patched_files(diagnose_case(case))]
    assert len(patched_cases) >= 2
    for case in patched_cases:
        out = tmp_path / case.path.name
        before = _fingerprint(case.path)
        result = run("diagnose", *map(str, case.inputs), "--patch", str(out))
        assert result.returncode == 0, result.stderr
        assert _fingerprint(case.path) == before  # originals untouched, nothing written beside them
        (expected,) = patched_files(diagnose_case(case))
        copy = out / Path(expected.path).name
        old, new = _values(Path(expected.path)), _values(copy)
        differing = {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}
        fix_keys = {
            c.path.rsplit(" ", 1)[-1].rsplit(".", 1)[-1].lstrip("-").replace("-", "_")
            for c in expected.changes
        }
        assert {key.replace("-", "_") for key in differing} == fix_keys
        diff = (out / "changes.diff").read_text(encoding="utf-8")
        changed = [
            line
            for line in diff.splitlines()
            if line[:1] in "+-" and line[:3] not in ("+++", "---")
        ]
        assert len(changed) == 2 * len(expected.changes)


def test_a_yaml_config_is_patched_with_its_comments_kept(tmp_path: Path) -> None:
    # DeepSpeed-Chat's fp16 loss-scale collapse, and a real axolotl YAML with `bf16: auto`.
    log = _case("deepspeed-chat-loss-scale-min-531").path / "train.log"
    result = run("diagnose", str(log), "--config", str(YAML_CONFIG), "--patch", str(tmp_path))
    assert result.returncode == 0, result.stderr
    original = YAML_CONFIG.read_text(encoding="utf-8")
    copy = (tmp_path / YAML_CONFIG.name).read_text(encoding="utf-8")
    old, new = original.splitlines(), copy.splitlines()
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert changed == [("bf16: auto", changed[0][1])]
    assert changed[0][1].startswith("bf16: true  # was: auto → now: true (")
    assert _values(tmp_path / YAML_CONFIG.name) == {**_values(YAML_CONFIG), "bf16": True}


def test_an_existing_copy_needs_force(tmp_path: Path) -> None:
    case = _case("vllm-no-cache-blocks-gpu-util-10439")
    args = ("diagnose", *map(str, case.inputs), "--patch", str(tmp_path))
    assert run(*args).returncode == 0
    (tmp_path / "command.txt").write_text("mine\n")
    refused = run(*args)
    assert_one_line_error(refused)
    assert "already exists" in refused.stderr and "--force" in refused.stderr
    assert (tmp_path / "command.txt").read_text() == "mine\n"
    assert run(*args, "--force").returncode == 0
    assert "--gpu-memory-utilization=0.95" in (tmp_path / "command.txt").read_text()


@pytest.mark.parametrize("target", ["inputs folder", "a file"])
def test_patch_never_writes_over_an_input_or_into_a_file(tmp_path: Path, target: str) -> None:
    case = _case("vllm-no-cache-blocks-gpu-util-10439")
    before = _fingerprint(case.path)
    directory = case.path if target == "inputs folder" else tmp_path / "report.txt"
    if target == "a file":
        directory.write_text("x")
    result = run("diagnose", *map(str, case.inputs), "--patch", str(directory), "--force")
    assert_one_line_error(result)
    assert _fingerprint(case.path) == before
