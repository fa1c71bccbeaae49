"""Compare config values the way a user means them: `"4"` from a log is the number 4.

Values reach a fix from regexes (strings), parsed configs (typed) and pattern
literals, so equality and the direction of a change are judged on the values
they denote. A boolean is never a number here (`True == 1` is not a no-op).
"""

from __future__ import annotations

import json
import math
from typing import Literal

from trainwreck.model import Scalar

Value = Scalar | list[Scalar]
Direction = Literal["lower", "higher"]


def denoted(value: Value) -> Value:
    """What a value means: JSON-looking strings ("4", "0.4", "true", "[1]") are parsed."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text in ("True", "False"):
        return text == "True"
    try:
        parsed = json.loads(text)
    except ValueError:
        return value
    return parsed if isinstance(parsed, bool | int | float | list) else value


def number(value: Value) -> float | None:
    """The value as a number, or None for booleans, text and lists."""
    meant = denoted(value)
    if isinstance(meant, bool) or not isinstance(meant, int | float):
        return None
    try:
        return float(meant)
    except OverflowError:  # an int of hundreds of digits: past any float
        return math.inf if meant > 0 else -math.inf


def same(first: Value, second: Value) -> bool:
    """Whether two values denote the same setting (1 and "1" yes, True and 1 no)."""
    one, two = denoted(first), denoted(second)
    if isinstance(one, bool) or isinstance(two, bool):
        return one is two
    return one == two


def direction(before: Value, after: Value) -> Direction | None:
    """Which way a numeric change moves, or None when either side is not a number."""
    old, new = number(before), number(after)
    if old is None or new is None or old == new:
        return None
    return "lower" if new < old else "higher"
