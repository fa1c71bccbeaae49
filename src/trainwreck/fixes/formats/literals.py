"""One value written in each syntax a change can land in.

A value keeps its type across syntaxes: `True` is `true` in YAML and JSON,
`True` in Python and on an HfArgumentParser command line. A string that names a
torch attribute (`torch.bfloat16`) or holds a JSON object stays code in Python.
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
import shlex

import yaml

from trainwreck.analyzers.code.parse import quiet_parse
from trainwreck.model import Scalar

Value = Scalar | list[Scalar]
# `ds_config.json` parses as an attribute lookup but names a file
_FILE_NAME = re.compile(r"[\w./-]+\.(?:json|ya?ml|toml|txt|cfg|ini)")
_CODE_NODES = (ast.Call, ast.Attribute, ast.Subscript, ast.Lambda, ast.Dict, ast.IfExp)


def shown(value: Value) -> str:
    """A value as a person reads it in a comment or a table: `true`, `unset`, `[1, 2]`."""
    if value is None:
        return "unset"
    return value if isinstance(value, str) else json.dumps(value)


def yaml_scalar(value: Value) -> str:
    """A flow-style YAML value that loads back as exactly `value`."""
    if isinstance(value, list):
        return "[" + ", ".join(yaml_scalar(item) for item in value) + "]"
    if isinstance(value, str):
        try:
            plain_ok = yaml.safe_load(value) == value and "#" not in value
        except yaml.YAMLError:
            plain_ok = False
        return value if plain_ok and value.strip() == value and value else json.dumps(value)
    return json.dumps(value)


def json_value(value: Value) -> str:
    return json.dumps(value, ensure_ascii=False)


def shell_word(value: Value, *, lower_bools: bool = False) -> str:
    """A flag's value on a command line; booleans as HfArgumentParser spells them."""
    if isinstance(value, bool):
        text = str(value)
        return text.lower() if lower_bools else text
    if isinstance(value, list):
        return " ".join(shell_word(item) for item in value)
    return shlex.quote(shown(value))


def python_literal(value: Value) -> str:
    """A Python expression for `value`: `True`, `'all-linear'`, `torch.bfloat16`, a dict."""
    if isinstance(value, str):
        if value.startswith(("{", "[")):
            with contextlib.suppress(ValueError):  # not JSON after all: a string or code
                return repr(json.loads(value))
        if _is_code(value):
            return value
    return repr(value)


def _is_code(text: str) -> bool:
    """An expression that calls, indexes or looks something up (`len(tokenizer)`,
    `torch.bfloat16`, `{'': 0}`), not a word that merely parses (`all-linear`, `auto`)
    or a file name (`ds_config.json`)."""
    if _FILE_NAME.fullmatch(text):
        return False
    try:
        tree = quiet_parse(text, mode="eval")
    except SyntaxError:
        return False
    return any(isinstance(node, _CODE_NODES) for node in ast.walk(tree))
