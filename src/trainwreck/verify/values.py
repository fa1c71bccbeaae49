"""A value of the wrong type, or outside the values the schema allows.

Only plain annotations are checked (bool, int, float, str, each optionally
None); anything richer (unions with lists, dicts, framework types) is left
alone rather than guessed at. `"auto"` is accepted wherever DeepSpeed and
the HF integration fill a value in.
"""

from __future__ import annotations

import difflib
import re

from trainwreck.model import Scalar
from trainwreck.verify.model import FieldSchema, Problem

_NONE = re.compile(r"^Optional\[(.*)\]$|^Union\[(.*), None\]$|^(.*?) \| None$|^None \| (.*)$")
_FLOAT_TEXT = re.compile(r"^[+-]?\d+(?:\.\d*)?[eE][+-]?\d+$")
AUTO = "auto"


def plain_type(type_text: str) -> str | None:
    """'Optional[int]' -> 'int'; None for anything that is not one plain type."""
    text = type_text.strip().strip("'\"")
    match = _NONE.match(text)
    if match:
        text = next(group for group in match.groups() if group)
    return text if text in ("bool", "int", "float", "str") else None


def _type_ok(kind: str, value: Scalar, from_argv: bool) -> bool:
    if from_argv and isinstance(value, str):
        if kind == "bool":
            return value.lower() in ("true", "false", "1", "0", "yes", "no")
        if kind in ("int", "float"):
            try:
                (int if kind == "int" else float)(value)
            except ValueError:
                return False
        return True
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":  # JSON writes 2e8 as a float; pydantic and int() take it
        integral = isinstance(value, float) and value.is_integer()
        return (isinstance(value, int) and not isinstance(value, bool)) or integral
    if kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)


def check_value(
    key: str, value: Scalar | list[Scalar], field: FieldSchema, from_argv: bool = False
) -> Problem | None:
    if value is None or value == AUTO or isinstance(value, list):
        return None
    if field.choices and not isinstance(value, bool):
        allowed = [c for c in field.choices if c is not None]
        if allowed and value not in allowed and str(value) not in [str(c) for c in allowed]:
            return Problem(
                "choice",
                key,
                f"`{key}: {value}` is not one of {', '.join(map(str, allowed))}",
                _nearest_choice(str(value), [str(c) for c in allowed]),
            )
        return None
    kind = plain_type(field.type)
    if kind is None or _type_ok(kind, value, from_argv):
        return None
    hint = None
    if kind == "float" and isinstance(value, str) and _FLOAT_TEXT.match(value):
        mantissa, _, exponent = value.lower().partition("e")
        hint = f"{mantissa if '.' in mantissa else mantissa + '.0'}e{exponent}"
        message = (
            f"`{key}: {value}` is read by YAML as the text {value!r}, not a number; write {hint}"
        )
    else:
        message = f"`{key}` expects {kind}, got {type(value).__name__} {value!r}"
    return Problem("type", key, message, hint)


def _nearest_choice(value: str, allowed: list[str]) -> str | None:
    lowered = {c.lower(): c for c in allowed}
    if value.lower() in lowered:
        return lowered[value.lower()]
    longer = [c for c in allowed if c.lower().startswith(value.lower())]
    if len(longer) == 1:
        return longer[0]
    found = difflib.get_close_matches(value, allowed, n=1, cutoff=0.6)
    return found[0] if found else None
