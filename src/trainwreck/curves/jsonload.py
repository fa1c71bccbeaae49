"""Parse many JSON values at once, fast: orjson when installed, the standard library otherwise.

orjson is strict JSON and refuses the bare NaN / Infinity / -Infinity that
Python's `json.dumps` writes for non-finite floats, and those are the very
events the curves look for. So they are turned into the strings "nan", "inf"
and "-inf" first (which NumPy reads back as floats). That substitution cannot
change a valid parse: the same letters inside a JSON string would gain quotes
that break it, the parse fails, and the standard library reads the text as is.
"""

from __future__ import annotations

import json
from types import ModuleType

_LITERALS = (("-Infinity", '"-inf"'), ("Infinity", '"inf"'), ("NaN", '"nan"'))


def _orjson() -> ModuleType | None:
    try:
        import orjson
    except ImportError:
        return None
    return orjson


def loads(text: str) -> object:
    """One JSON document; raises ValueError (or RecursionError) when it is not valid JSON.

    Whatever orjson refuses (also integers past 64 bits, nesting past its limit) is
    left to the standard library. The one difference orjson makes: a bare NaN or
    Infinity comes back as the string "nan" / "inf", which the column readers read
    as the float it stands for.
    """
    fast = _orjson()
    if fast is None:
        return json.loads(text)
    attempts = [text]
    if any(literal in text for literal, _ in _LITERALS):  # quoted first: one parse, not two
        quoted = text
        for literal, string in _LITERALS:
            if literal in quoted:
                quoted = quoted.replace(literal, string)
        attempts.insert(0, quoted)
    for attempt in attempts:
        try:
            return fast.loads(attempt)
        except ValueError:
            continue
    return json.loads(text)
