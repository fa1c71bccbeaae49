"""Patch values in a YAML file in place, each changed line commented with what it was.

ruamel.yaml's round-trip loader says where each key and value sit (line and
column). The value is then replaced in the text itself: a value on its key's line
is swapped, a block list or mapping under the key becomes one flow value on the
key's line. Every other line, comment, blank line and indent stays the user's,
byte for byte, which a re-dump (even ruamel's) does not promise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from trainwreck.fixes.formats.literals import Value, yaml_scalar

_QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'")
_FLOW = re.compile(r"\[[^\]#]*\]|\{[^}#]*\}")
_PLAIN = re.compile(r"[^#\n]*?(?=\s+#|\s*$)")
_KEY = re.compile(r"(?:\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^:#\n]+?)\s*:(?=\s|$)")


@dataclass(frozen=True)
class YamlEdit:
    """One key to set: its flat dotted path, the new value and the comment to add."""

    key: str
    value: Value
    comment: str


def _load(text: str) -> Any:
    from ruamel.yaml import YAML  # only a run with a YAML config to patch pays for it

    try:
        return YAML(typ="rt").load(text)
    except Exception:  # ruamel raises many unrelated types on bad input
        return None


def _located(document: Any, key: str) -> tuple[Any, Any] | None:
    """The ruamel mapping holding the flat key, and the key's last component."""
    node, container, last = document, None, None
    for part in key.split("."):
        container = node
        last = int(part) if isinstance(node, list) and part.isdigit() else part
        try:
            node = node[last]
        except (KeyError, IndexError, TypeError):
            return None
    return (container, last) if isinstance(container, Mapping) else None


def _block_end(lines: list[str], key_line: int, key_column: int) -> int:
    """The line after a block value that starts below its key (trailing blanks stay)."""
    end = key_line + 1
    for number in range(key_line + 1, len(lines)):
        stripped = lines[number].strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(lines[number]) - len(lines[number].lstrip(" "))
        if indent < key_column or (indent == key_column and not stripped.startswith("- ")):
            break
        end = number + 1
    return end


def _edit(lines: list[str], document: Any, edit: YamlEdit) -> bool:
    """Apply one edit to `lines`; False when the key is not found where expected."""
    found = _located(document, edit.key)
    if found is None:
        return False
    container, last = found
    key_line, key_column = container.lc.key(last)
    value_line, value_column = container.lc.value(last)
    line = lines[key_line]
    newline = "\n" if line.endswith("\n") else ""
    if value_line == key_line:
        rest = line[value_column:].rstrip("\n")
        match = _QUOTED.match(rest) or _FLOW.match(rest) or _PLAIN.match(rest)
        if match is None or not match.group(0).strip():
            return False
        head, old_comment, drop_until = line[:value_column], rest[match.end() :], key_line + 1
    else:
        key = _KEY.match(line, key_column)
        if key is None:
            return False
        head, old_comment = line[: key.end()] + " ", line[key.end() :].rstrip("\n")
        drop_until = _block_end(lines, key_line, key_column)
    old_comment = old_comment.strip().lstrip("#").strip()
    comment = f"  # {edit.comment}" + (f"; {old_comment}" if old_comment else "")
    lines[key_line:drop_until] = [head + yaml_scalar(edit.value) + comment + newline]
    return True


def patch_yaml(text: str, edits: list[YamlEdit]) -> str:
    """`text` with every edit applied, last line first; keys not found are left out."""
    document = _load(text)
    if document is None:
        return text
    lines = text.splitlines(keepends=True)
    placed = [(f, e) for e in edits if (f := _located(document, e.key)) is not None]
    placed.sort(key=lambda pair: pair[0][0].lc.key(pair[0][1])[0], reverse=True)
    for _, edit in placed:
        _edit(lines, document, edit)
    return "".join(lines)
