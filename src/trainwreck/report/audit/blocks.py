"""Rules (f) and (i): each fenced block parses for its language; no key set twice.

A block a user pastes must do what it says: Python compiles, YAML/JSON/TOML
load, a shell block holds no Python and no stray backtick, a diff is a diff. In
the consolidated config, a key set twice in one block leaves the reader to guess
which value wins (and Python refuses a repeated keyword outright).
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
import warnings
from collections.abc import Callable, Iterator

import yaml

from trainwreck.report.audit.base import Audited, AuditFinding
from trainwreck.report.audit.keys import block_keys
from trainwreck.report.audit.text import Block, blocks

CONSOLIDATED = "consolidated config"
_SHELLS = ("bash", "sh", "shell", "zsh")
# Python statements no shell line starts with; `NAME = value` with spaces is not shell either.
_PYTHON_IN_SHELL = re.compile(
    r"^\s*(?:import \w|from [\w.]+ import |def \w+\(|class \w+[(:]|print\(|[\w.]+\($|"
    r"[A-Za-z_][\w.]* = [^=]|\)$)"
)
_DIFF_LINE = re.compile(r"^(?:[ +\-@\\]|diff |index |$)")


def _python(text: str) -> str | None:
    try:
        # an invalid escape ("\s" in a plain string) is a warning today and an error in a
        # later Python: code we hand the user must have none
        with warnings.catch_warnings():
            warnings.simplefilter("error", (SyntaxWarning, DeprecationWarning))
            ast.parse(text)
    except SyntaxError as exc:
        return f"Python does not parse: {exc.msg} (block line {exc.lineno})"
    return None


def _yaml(text: str) -> str | None:
    try:
        list(yaml.safe_load_all(text))
    except yaml.YAMLError as exc:
        return f"YAML does not load: {str(exc).splitlines()[0]}"
    return None


def _json(text: str) -> str | None:
    try:
        json.loads(text)
    except ValueError as exc:
        return f"JSON does not load: {exc}"
    return None


def _toml(text: str) -> str | None:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return f"TOML does not load: {exc}"
    return None


def _shell(text: str) -> str | None:
    for offset, line in enumerate(text.splitlines()):
        if not line.lstrip().startswith("#") and _PYTHON_IN_SHELL.search(line):
            return f"Python in a shell block (block line {offset + 1}): {line.strip()!r}"
    if text.count("`") % 2:
        return "a stray backtick: the shell would read the rest as a command substitution"
    return None


def _diff(text: str) -> str | None:
    bad = next((line for line in text.splitlines() if not _DIFF_LINE.match(line)), None)
    return None if bad is None else f"not a unified diff: {bad.strip()!r}"


_CHECKS: dict[str, Callable[[str], str | None]] = {
    "python": _python,
    "py": _python,
    "yaml": _yaml,
    "yml": _yaml,
    "json": _json,
    "toml": _toml,
    "diff": _diff,
    **dict.fromkeys(_SHELLS, _shell),
}


def _block_where(block: Block) -> str:
    return f"markdown:{block.line} ({block.language or 'plain'} block in {block.section or 'top'})"


def blocks_parse(report: Audited) -> list[AuditFinding]:
    """(f) Every fenced block of a checkable language parses as that language."""
    found = []
    for block in blocks(report.markdown):
        check = _CHECKS.get(block.language)
        why = check(block.text) if check else None
        if why is not None:
            found.append(AuditFinding("block-does-not-parse", _block_where(block), why))
    return found


def _duplicates(block: Block) -> Iterator[str]:
    seen: set[tuple[str, str]] = set()
    for scoped in block_keys(block.language, block.text):
        if scoped in seen:
            yield scoped[1]
        seen.add(scoped)


def no_duplicate_keys(report: Audited) -> list[AuditFinding]:
    """(i) No key, keyword, flag or variable set twice in one consolidated block."""
    return [
        AuditFinding("duplicate-key", _block_where(block), f"{key!r} is set more than once")
        for block in blocks(report.markdown)
        if CONSOLIDATED in block.section
        for key in dict.fromkeys(_duplicates(block))
    ]
