"""Read a config file into flat keys, or say exactly where it stops parsing.

JSON, YAML (anchors and merge keys included) and TOML go through data-only
loaders; a launch command (`python train.py --key value ...`) is split into the
launcher's flags and the script's. A file that does not parse raises
`ConfigSyntaxError` naming the line, so the caller can report it and go on.
A config is evidence: its text and its name are redacted before anything reads them.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import yaml

from trainwreck.errors import EvidenceError
from trainwreck.evidence.configs import Values, flatten, is_launch_line, joined_commands
from trainwreck.evidence.configs import parse_argv as _parse_argv
from trainwreck.evidence.files import SNIFF_BYTES, looks_binary
from trainwreck.evidence.structured import load_json, load_toml, load_yaml
from trainwreck.limits import MAX_CONFIG_BYTES, MIB, LimitExceeded, special_file
from trainwreck.redact import redact

_WORD = re.compile(r"[\w-]+")  # a key as a line spells it: letters, digits, _ and -


class ConfigSyntaxError(EvidenceError):
    """A config that cannot be parsed; the message names the file and line."""


@dataclass
class Document:
    """One parsed input: flat values, the nested data, and the launcher when a command."""

    path: str
    values: Values
    data: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    launcher: str | None = None  # "accelerate", "torchrun", "deepspeed", "vllm", "python"
    launcher_values: Values = field(default_factory=dict)
    positional: list[str] = field(default_factory=list)

    def line_of(self, key: str) -> int | None:
        """The first line that spells the key's last component (1-based), as a whole word."""
        leaf = key.rsplit(".", 1)[-1]
        spellings = {leaf, leaf.replace("_", "-")}
        spellings |= {f"--{spelling}" for spelling in spellings}  # a launch command's flag
        if all(_WORD.fullmatch(spelling) for spelling in spellings):
            found = [self._word_lines[s] for s in spellings if s in self._word_lines]
            return min(found, default=None)
        for number, line in enumerate(self.text.splitlines(), 1):
            if any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", line) for s in spellings):
                return number
        return None

    @cached_property
    def _word_lines(self) -> dict[str, int]:
        """Each whole word of the text -> its first line: one pass, where a search per key
        made 9,000 keys quadratic (131 s)."""
        first: dict[str, int] = {}
        for number, line in enumerate(self.text.splitlines(), 1):
            for word in _WORD.findall(line):
                first.setdefault(word, number)
        return first


def _bounded(path: str, parse: Callable[[str], Any], text: str) -> Any:
    """A structured loader's result; past a nesting or alias limit, a ConfigSyntaxError."""
    try:
        return parse(text)
    except LimitExceeded as exc:
        raise ConfigSyntaxError(f"{path}: {exc}") from None


def _json(path: str, text: str) -> Any:
    try:
        return _bounded(path, load_json, text)
    except json.JSONDecodeError as exc:
        hint = ""
        if re.search(r",\s*[}\]]", text):
            hint = " (a trailing comma?)"
        elif re.search(r"^\s*(//|#)|/\*", text, re.M):
            hint = " (comments are not JSON)"
        raise ConfigSyntaxError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}{hint}") from None


def _yaml(path: str, text: str) -> Any:
    try:
        return _bounded(path, load_yaml, text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigSyntaxError(f"{path}{line}: not valid YAML: {problem}") from None


def _toml(path: str, text: str) -> Any:
    try:
        return _bounded(path, load_toml, text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        line = f":{match.group(1)}" if match else ""
        raise ConfigSyntaxError(f"{path}{line}: not valid TOML: {exc}") from None


_LAUNCHERS = (
    ("accelerate", re.compile(r"\baccelerate\s+launch\b")),
    ("vllm", re.compile(r"\bvllm\s+serve\b|vllm\.entrypoints\.openai\.api_server")),
    ("torchrun", re.compile(r"\btorchrun\b|torch\.distributed\.(?:run|launch)")),
    ("deepspeed", re.compile(r"(?:^|\s)deepspeed\s")),
)


def _split_command(command: str) -> tuple[str, str, str]:
    """(launcher, launcher part, script part) of one command line."""
    for name, pattern in _LAUNCHERS:
        match = pattern.search(command)
        if match:
            rest = command[match.end() :]
            script = re.search(r"\s(\S+\.py|-m\s+\S+)(\s|$)", rest)
            if name == "vllm":
                return name, "", rest
            if script:
                return name, rest[: script.start()], rest[script.end() :]
            return name, rest, ""
    script = re.search(r"\s(\S+\.py|-m\s+\S+)(\s|$)", " " + command)
    return "python", "", command[script.end() - 1 :] if script else command


def read_launch(path: str, text: str) -> Document | None:
    """The first launch command in a shell-like file, or None when there is none."""
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1)]
    for _, command in joined_commands(numbered):
        if command.lstrip().startswith("#") or not is_launch_line(command):
            continue
        launcher, head, tail = _split_command(command)
        values = _parse_argv(tail)
        positional = [w for w in tail.split() if not w.startswith("-")][:1]
        normalized = {k.replace("-", "_"): v for k, v in values.items()}
        head_values = {k.replace("-", "_"): v for k, v in _parse_argv(head).items()}
        return Document(path, normalized, {}, text, launcher, head_values, positional)
    return None


def read_text(path: str, text: str) -> Document:
    """Parse by suffix; a file that is no mapping and no launch command is an error."""
    path, text = redact(path), redact(text)
    lower = path.lower()
    if lower.endswith((".sh", ".bash", ".txt", ".cmd")) or (
        not lower.endswith((".json", ".yaml", ".yml", ".toml")) and is_launch_line(text)
    ):
        document = read_launch(path, text)
        if document is None:
            raise ConfigSyntaxError(f"{path}:1: no launch command with --flags found")
        return document
    if lower.endswith(".json"):
        data = _json(path, text)
    elif lower.endswith(".toml"):
        data = _toml(path, text)
    else:
        data = _yaml(path, text)
    if not isinstance(data, dict):
        raise ConfigSyntaxError(f"{path}:1: expected a mapping of keys, got {type(data).__name__}")
    return Document(path, flatten(data), data, text)


def read_file(path: str) -> Document:
    """One config file, read up to MAX_CONFIG_BYTES; never opens a FIFO or a device."""
    special = special_file(path)
    if special:
        raise ConfigSyntaxError(f"{redact(path)}: {special}")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigSyntaxError(f"{redact(path)}: cannot read: {exc.strerror}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigSyntaxError(
            f"{redact(path)}: larger than {MAX_CONFIG_BYTES // MIB} MiB; not a config"
        )
    if looks_binary(raw[:SNIFF_BYTES]):
        raise ConfigSyntaxError(f"{redact(path)}: a binary file (not text), so not a config")
    return read_text(path, raw.decode("utf-8", errors="replace"))
