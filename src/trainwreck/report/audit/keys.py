"""The keys a block sets, each with its scope, repeats kept: the duplicate-key rule's input.

A scope is where two equal keys clash: one call's keywords, one mapping's keys,
one command's flags; two calls may each pass `drop_last`.
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterator

import yaml

from trainwreck.analyzers.code.parse import quiet_parse

ScopedKey = tuple[str, str]  # (scope, key)

_KEY_LINE = re.compile(r"^\s*(?P<key>[\w.\-\[\]'\"]+)\s*:\s")
_EXPORT = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=")
_ADDED_YAML_KEY = re.compile(r"^\+(?P<indent>\s*)(?:- )?(?P<key>[\w.\-]+)\s*:")


def _python_keys(text: str) -> Iterator[ScopedKey]:
    """Each call's keywords, and each dict literal's constant keys."""
    try:
        tree = quiet_parse(text)  # a block of another language may hold "\(" and such
    except SyntaxError:
        return
    for index, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.Call):
            call = f"{ast.unparse(node.func)}()"
            yield from ((f"{index}", f"{call} {k.arg}") for k in node.keywords if k.arg)
        elif isinstance(node, ast.Dict):
            constants = (key.value for key in node.keys if isinstance(key, ast.Constant))
            yield from ((f"{index}", f"dict key {value!r}") for value in constants)


def _yaml_keys(text: str) -> Iterator[ScopedKey]:
    """Mapping keys with the path of the mapping that holds them, so siblings only clash."""
    try:
        roots = list(yaml.compose_all(text))
    except yaml.YAMLError:
        return
    stack: list[tuple[str, yaml.Node]] = [("", root) for root in roots if root is not None]
    while stack:
        path, node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = f"{path}.{key.value}" if path else str(key.value)
                yield path, name
                stack.append((name, value))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((f"{path}[{i}]", item) for i, item in enumerate(node.value))


def _shell_keys(text: str) -> Iterator[ScopedKey]:
    """Variables assigned, and each command's flags (`--a-b` and `--a_b` are one flag)."""
    for index, command in enumerate(re.split(r"(?<!\\)\n", text)):
        try:
            words = shlex.split(command.replace("\\\n", " "), comments=True)
        except ValueError:
            continue
        # an export holds for the whole block; `NAME=value cmd` for that command only
        scope = "" if words[:1] == ["export"] else f"command {index}"
        for word in words:
            if (match := _EXPORT.match(word)) is not None:
                yield scope, f"${match.group('name')}"
        flags = (w.split("=", 1)[0].replace("_", "-") for w in words if w.startswith("--"))
        yield from ((f"command {index}", flag) for flag in flags)


def _diff_keys(text: str) -> Iterator[ScopedKey]:
    """Keys the diff adds, by indentation: a patch that adds a key twice at one level."""
    for line in text.splitlines():
        match = _ADDED_YAML_KEY.match(line)
        if match and not line.startswith("+++"):
            yield f"indent {len(match.group('indent'))}", match.group("key")


def _plain_keys(text: str) -> Iterator[ScopedKey]:
    for line in text.splitlines():
        if (match := _KEY_LINE.match(line)) is not None:
            yield "", match.group("key")


def block_keys(language: str, text: str) -> Iterator[ScopedKey]:
    """The keys `text` sets, read for its fence language."""
    if language in ("python", "py"):
        return _python_keys(text)
    if language in ("yaml", "yml", "json"):
        return _yaml_keys(text)  # JSON is YAML here, and PyYAML keeps repeated keys
    if language in ("bash", "sh", "shell", "zsh"):
        return _shell_keys(text)
    if language == "diff":
        return _diff_keys(text)
    return _plain_keys(text)
