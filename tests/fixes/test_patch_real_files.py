"""Patching real config files: every copy parses and differs only where it was meant to.

The files are the real-case set's JSON configs and launch commands and two
public YAML configs (configs/README.md). Each scalar setting of each file is
patched on its own; the copy must parse, differ in exactly that setting, and
differ from the original in exactly the lines that hold it.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from trainwreck.evidence.configs import Values, parse_argv, parse_config_text
from trainwreck.fixes.consolidate import UserFile, consolidate, file_format
from trainwreck.fixes.formats.command import command_blocks, one_line
from trainwreck.fixes.targets import is_deepspeed
from trainwreck.model import Change, Scalar

HERE = Path(__file__).parent
CASE_FILES = sorted(
    path
    for path in (HERE.parent / "cases").glob("*/*")
    if path.name not in ("case.yaml", "expected.json")
    and file_format(path.name, path.read_text(encoding="utf-8", errors="replace")) is not None
)
REAL_FILES = [*CASE_FILES, *sorted((HERE / "configs").glob("*.y*ml"))]


def _parsed(path: Path, text: str) -> Values:
    if file_format(path.name, text) == "command":
        merged: Values = {}
        for start, end in command_blocks(text):
            merged.update(parse_argv(one_line(text[start:end])))
        return merged
    values = parse_config_text(path.name, text)
    assert values is not None, f"{path} does not parse"
    return values


def _other(value: Scalar) -> Scalar:
    """A different value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value * 2 + 3
    if isinstance(value, float):
        return round(value * 2 + 0.5, 6)
    return f"{value}-patched" if value else "patched"


def _changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0))
    removed = [line for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line for line in diff if line.startswith("+") and not line.startswith("+++")]
    return removed, added


def test_the_real_case_set_ships_config_and_command_files() -> None:
    kinds = {file_format(p.name, p.read_text(encoding="utf-8")) for p in CASE_FILES}
    assert len(CASE_FILES) >= 6 and kinds == {"json", "command"}


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_setting_of_a_real_file_patches_alone(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    original = _parsed(path, text)
    command = file_format(path.name, text) == "command"
    prefix = "ds_config." if is_deepspeed(original) else ""
    settings = [
        (key, value)
        for key, value in original.items()
        if not isinstance(value, list) and not (command and isinstance(value, bool))
    ]
    assert settings
    for key, value in settings:
        wanted = _other(value)
        change = Change(path=f"--{key}" if command else prefix + key, after=wanted, verified=True)
        files = consolidate([change], [UserFile(str(path), text)]).files
        if isinstance(value, str) and value[:1] in "\"'":
            # A command with an unbalanced quote (a truncated paste) cannot be read back
            # exactly, so its quoted values are never patched.
            assert files == ()
            continue
        (patched,) = files
        result = _parsed(path, patched.patched)
        assert result == {**original, key: wanted}, key
        removed, added = _changed_lines(text, patched.patched)
        assert len(removed) == len(added) == 1, (key, removed, added)
        if file_format(path.name, text) == "yaml":
            assert "# was: " in added[0] and " → now: " in added[0]
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("path", sorted((HERE / "configs").glob("*.y*ml")), ids=lambda p: p.name)
def test_yaml_comments_blank_lines_and_key_order_survive(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    values = _parsed(path, text)
    changes = [
        Change(path=key, after=_other(value), verified=True, reason="test")
        for key, value in list(values.items())[:6]
        if not isinstance(value, list)
    ]
    (patched,) = consolidate(changes, [UserFile(str(path), text)]).files
    lines, new_lines = text.splitlines(), patched.patched.splitlines()
    assert len(new_lines) == len(lines)
    comments = [line for line in lines if line.lstrip().startswith("#") or not line.strip()]
    assert comments == [
        line for line in new_lines if line.lstrip().startswith("#") or not line.strip()
    ]
    assert list(_parsed(path, patched.patched)) == list(values)


def test_a_block_list_becomes_one_flow_line_and_the_rest_stays() -> None:
    path = HERE / "configs" / "axolotl-llama3-lora-8b.yml"
    text = path.read_text(encoding="utf-8")
    change = Change(path="lora_modules_to_save", after=["lm_head"], verified=True)
    (patched,) = consolidate([change], [UserFile(str(path), text)]).files
    removed, added = _changed_lines(text, patched.patched)
    assert removed == ["-lora_modules_to_save:", "-  - embed_tokens", "-  - lm_head"]
    assert added == [
        '+lora_modules_to_save: [lm_head]  # was: ["embed_tokens", "lm_head"] → now: ["lm_head"]'
    ]
    assert _parsed(path, patched.patched)["lora_modules_to_save"] == ["lm_head"]
