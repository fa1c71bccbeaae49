"""The chosen fix's changes, consolidated where the user sets them.

Each change goes to the first of the user's files that already holds the
setting (a YAML or JSON key, a flag of a launch command), patched there in that
file's own format; a flag of a named launcher (`vllm serve`, `torchrun`) is also
appended to a command of that launcher. A patched file is re-parsed and kept only
if exactly the intended keys changed, to exactly the intended values. What no
file holds becomes lines to paste: exports, flags, a Python call, keys.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Literal

from trainwreck.evidence.configs import Values, parse_argv, parse_config_text
from trainwreck.fixes.compare import same
from trainwreck.fixes.formats.command import FlagEdit, command_blocks, one_line, rewrite_commands
from trainwreck.fixes.formats.json_file import patch_json
from trainwreck.fixes.formats.literals import Value, shell_word, shown
from trainwreck.fixes.formats.standalone import UNVERIFIED, standalone_blocks
from trainwreck.fixes.formats.yaml_file import YamlEdit, patch_yaml
from trainwreck.fixes.targets import find_key, normal_name, target
from trainwreck.model import Change, ConfigBlock, Hypothesis, InputFile
from trainwreck.redact import redact
from trainwreck.verify.guard import CLASS_FRAMEWORK

FileFormat = Literal["yaml", "json", "command"]
# Frameworks whose runs go through another's classes: PEFT and TRL train with
# transformers' Trainer and TrainingArguments.
_BUILT_ON = {"transformers": ("peft", "trl")}
MAX_PATCH_BYTES = 1 << 20  # a config or launch script; anything larger is not one


@dataclass(frozen=True)
class UserFile:
    """A config or command file the user handed in, as read."""

    path: str
    text: str


@dataclass(frozen=True)
class PatchedFile:
    """A user's file with some of the fix's changes applied (the original is never touched)."""

    path: str
    format: FileFormat
    original: str
    patched: str
    changes: tuple[Change, ...]
    notes: tuple[str, ...] = ()  # `key: was → now (reason)`, for formats without comments

    def diff(self) -> str:
        """The unified diff from the original to the patched copy."""
        return "".join(
            difflib.unified_diff(
                self.original.splitlines(keepends=True),
                self.patched.splitlines(keepends=True),
                f"a/{self.path.lstrip('/')}",
                f"b/{self.path.lstrip('/')}",
            )
        )

    def block(self) -> ConfigBlock:
        """What the report shows: the diff, or for a command file the rewritten commands."""
        if self.format == "command":
            before = [self.original[s:e] for s, e in command_blocks(self.original)]
            after = [self.patched[s:e] for s, e in command_blocks(self.patched)]
            text = "".join(new for old, new in zip(before, after, strict=False) if old != new)
            text = text.rstrip("\n")
        else:
            text = self.diff()
        return ConfigBlock(format=self.format, text=text, source=self.path, notes=self.notes)


@dataclass(frozen=True)
class Consolidated:
    files: tuple[PatchedFile, ...]
    blocks: tuple[ConfigBlock, ...]


def comment(change: Change, current: Value) -> str:
    """`was: 64 → now: 16 (reason)`: what a patched line says about itself."""
    text = f"was: {shown(current)} → now: {shown(change.after)}"
    if change.reason:
        text += f" ({change.reason.rstrip('.')})"
    return text if change.verified else f"{text} {UNVERIFIED}"


def file_format(path: str, text: str) -> FileFormat | None:
    suffix = PurePath(path).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix in ("", ".sh", ".bash", ".txt", ".cmd") and command_blocks(text):
        return "command"
    return None


def _patch_data_file(file: UserFile, kind: FileFormat, changes: list[Change]) -> PatchedFile | None:
    values = parse_config_text(file.path, file.text)
    if values is None:
        return None
    planned: dict[str, Change] = {}
    for change in changes:
        where = target(change.path)
        key = find_key(values, where)
        if key is not None and key not in planned and not same(values[key], change.after):
            planned[key] = change
    if not planned:
        return None
    if kind == "json":
        patched = patch_json(file.text, {key: c.after for key, c in planned.items()})
    else:
        edits = [YamlEdit(k, c.after, comment(c, values[k])) for k, c in planned.items()]
        patched = patch_yaml(file.text, edits)
    expected = {**values, **{key: c.after for key, c in planned.items()}}
    if parse_config_text(file.path, patched) != expected:
        return None
    notes = tuple(f"{k} — {comment(c, values[k])}" for k, c in planned.items())
    changed = tuple(planned.values())
    return PatchedFile(
        file.path, kind, file.text, patched, changed, notes if kind == "json" else ()
    )


def _argv(text: str) -> list[Values]:
    return [parse_argv(one_line(text[s:e])) for s, e in command_blocks(text)]


def _patch_command_file(file: UserFile, changes: list[Change]) -> PatchedFile | None:
    commands = _argv(file.text)
    flags = {normal_name(key) for command in commands for key in command}
    edits: dict[str, tuple[FlagEdit, Change]] = {}
    for change in changes:
        where = target(change.path)
        named = where.kind == "flag" or where.leaf in flags
        if where.kind != "env" and named and where.leaf not in edits:
            program = where.owner if where.kind == "flag" else ""
            spelled = where.name if where.kind == "flag" else where.leaf
            edits[where.leaf] = (FlagEdit(spelled, change.after, program), change)
    patched = rewrite_commands(file.text, [edit for edit, _ in edits.values()])
    before, after = _argv(file.text), _argv(patched)
    if patched == file.text or len(before) != len(after):
        return None
    applied: dict[Change, str] = {}
    for old, new in zip(before, after, strict=True):
        changed = {normal_name(k) for k in {*old, *new} if old.get(k) != new.get(k)}
        if not changed <= edits.keys():
            return None
        for leaf in sorted(changed, key=list(edits).index):  # the fix's order, not a set's
            edit, change = edits[leaf]
            value = next(v for k, v in new.items() if normal_name(k) == leaf)
            if value == _as_typed(edit.value) and change not in applied:
                was = next((v for k, v in old.items() if normal_name(k) == leaf), None)
                applied[change] = f"{edit.flag} — {comment(change, was)}"
    placed = tuple(applied)
    return PatchedFile(file.path, "command", file.text, patched, placed, tuple(applied.values()))


def _as_typed(value: Value) -> Value:
    """A value as `parse_argv` reads it back from the command line we wrote."""
    return parse_argv(f"--x {shell_word(value)}")["x"] if value is not True else True


def consolidate(
    changes: Sequence[Change],
    files: Sequence[UserFile],
    frameworks: Mapping[str, str] | None = None,
) -> Consolidated:
    """Place each change (first one per path) in a user's file, or in a block to paste
    when the run's frameworks can take it (a key the user's own file holds always can)."""
    first_by_path: dict[str, Change] = {}
    for change in changes:
        first_by_path.setdefault(change.path, change)
    pending = list(first_by_path.values())
    patched_files: list[PatchedFile] = []
    for file in files:
        kind = file_format(file.path, file.text)
        if kind is None or not pending:
            continue
        if kind == "command":
            result = _patch_command_file(file, pending)
        else:
            result = _patch_data_file(file, kind, pending)
        if result is not None and result.changes:
            patched_files.append(result)
            pending = [c for c in pending if c not in result.changes]
    pasted = for_this_run(pending, frameworks or {})
    blocks = tuple(f.block() for f in patched_files) + standalone_blocks(pasted)
    return Consolidated(tuple(patched_files), blocks)


def read_user_files(inputs: Sequence[InputFile]) -> list[UserFile]:
    """The configs and command files among the inputs, read again as text (small,
    uncompressed, patchable ones only; logs are evidence, not files to patch).

    Read again means evidence enters again: the text is redacted, so a patched
    copy or a diff shows a placeholder where the file holds a secret."""
    files = []
    for item in inputs:
        if item.kind not in ("config", "log") or item.compressed or item.path == "-":
            continue
        if (item.size_bytes or 0) > MAX_PATCH_BYTES:
            continue
        try:
            text = Path(item.path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if file_format(item.path, text) is not None:
            files.append(UserFile(item.path, redact(text)))
    return files


def for_this_run(changes: Sequence[Change], frameworks: Mapping[str, str]) -> list[Change]:
    """The changes to paste the run can take: a framework class's key (`TrainingArguments.bf16`) is
    left out when the run's evidence names its frameworks and that class's is not among
    them (a plain PyTorch loop has no TrainingArguments to pass it to)."""
    if not frameworks:
        return list(changes)
    kept = []
    for change in changes:
        owner = CLASS_FRAMEWORK.get(change.path.split(".", 1)[0])
        if owner is None or {owner[0], *_BUILT_ON.get(owner[0], ())} & frameworks.keys():
            kept.append(change)
    return kept


def consolidated_blocks(
    hypotheses: Sequence[Hypothesis],
    inputs: Sequence[InputFile],
    frameworks: Mapping[str, str] | None = None,
) -> tuple[ConfigBlock, ...]:
    """The top hypothesis's first fix in the user's formats, as far as the run's frameworks
    take it; () when it changes nothing."""
    if not hypotheses or not hypotheses[0].fixes or not hypotheses[0].fixes[0].changes:
        return ()
    changes = hypotheses[0].fixes[0].changes
    return consolidate(changes, read_user_files(inputs), frameworks or {}).blocks
