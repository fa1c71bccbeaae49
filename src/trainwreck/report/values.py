"""How values are written in a report: config values, numbers, copy-paste config.

A change's `path` says where the setting lives: `env:NAME` or an upper-case name
such as `PYTORCH_CUDA_ALLOC_CONF` is an environment variable, a path starting
with `-` is a command-line flag, anything else (`TrainingArguments.bf16`,
`zero_optimization.stage`) is a config key.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from trainwreck.model import Change, Scalar

_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
# How to print a framework's version where `import <name>; <name>.__version__` is wrong.
_VERSION_EXPRESSIONS: dict[str, tuple[str, str]] = {
    "torch": ("torch", "torch.__version__"),
    "cuda": ("torch", "torch.version.cuda"),
    "nccl": ("torch", "torch.cuda.nccl.version()"),
    "python": ("sys", "sys.version.split()[0]"),
    "megatron": ("megatron.core", "megatron.core.__version__"),
}
_ALIASES = {"pytorch": "torch", "megatron-core": "megatron"}
ChangeKind = Literal["env", "flag", "key"]
UNVERIFIED = "[unverified key]"


@dataclass(frozen=True)
class ConfigGroup:
    heading: str
    lines: tuple[str, ...]


def format_value(value: Scalar | list[Scalar]) -> str:
    """A config value as a user would type it: `true`, `unset`, `[1, 2]`, `bf16`."""
    if value is None:
        return "unset"
    if isinstance(value, str):
        return value
    return json.dumps(value)


def format_number(value: float | int | str) -> str:
    """A computed value: thousands separated, at most two decimals unless tiny."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return f"{value:,}"
    if value == 0 or abs(value) >= 0.01:
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{value:.3g}"


def change_kind(path: str) -> ChangeKind:
    if path.startswith("env:") or _ENV_NAME.fullmatch(path):
        return "env"
    return "flag" if path.startswith("-") else "key"


def config_line(change: Change) -> str:
    """One copy-paste line for a change: `export`, a flag, or `key: value`."""
    after = format_value(change.after)
    match change_kind(change.path):
        case "env":
            name = change.path.removeprefix("env:")
            quoted = shlex.quote(after)
            line = f"unset {name}" if change.after is None else f"export {name}={quoted}"
        case "flag":
            line = change.path if change.after is True else f"{change.path} {shlex.quote(after)}"
        case "key":
            line = f"{change.path}: {after}"
    return line if change.verified else f"{line}  # {UNVERIFIED}"


def consolidated_config(changes: Iterable[Change]) -> tuple[ConfigGroup, ...]:
    """All changes of a fix list as one block, grouped by where they are set.

    A path changed by two fixes keeps its first (least destructive) value.
    """
    first_by_path: dict[str, Change] = {}
    for change in changes:
        first_by_path.setdefault(change.path, change)
    headings: dict[ChangeKind, str] = {
        "env": "# environment",
        "flag": "# command-line flags",
        "key": "# config",
    }
    groups = []
    for kind, heading in headings.items():
        lines = tuple(config_line(c) for c in first_by_path.values() if change_kind(c.path) == kind)
        if lines:
            groups.append(ConfigGroup(heading, lines))
    return tuple(groups)


def missing_frameworks(frameworks: Iterable[str], known: Iterable[str]) -> tuple[str, ...]:
    """The frameworks (canonical names, e.g. `torch`) whose version is not known."""
    known_names = {_canonical(name) for name in known}
    wanted = dict.fromkeys(_canonical(name) for name in frameworks)
    return tuple(name for name in wanted if name not in known_names)


def version_command(frameworks: Iterable[str]) -> str:
    """`python -c "..."` that prints the versions of `frameworks`."""
    pairs = [_VERSION_EXPRESSIONS.get(name) or _default_expression(name) for name in frameworks]
    modules = ", ".join(dict.fromkeys(module for module, _ in pairs))
    expressions = ", ".join(expression for _, expression in pairs)
    return f'python -c "import {modules}; print({expressions})"'


def _canonical(name: str) -> str:
    name = name.lower().replace("_", "-")
    return _ALIASES.get(name, name)


def _default_expression(name: str) -> tuple[str, str]:
    module = name.replace("-", "_")
    return module, f"{module}.__version__"
