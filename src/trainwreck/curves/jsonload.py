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


def _quoted(text: str) -> str:
    for literal, string in _LITERALS:
        if literal in text:
            text = text.replace(literal, string)
    return text


def _first_literal(text: str) -> int:
    """Where the first bare NaN / Infinity may begin; len(text) when there is none.

    A one-character search runs at memory speed, a three-character one several
    times slower, so the longer search starts only from the first 'N' or 'I'.
    """
    found = len(text)
    for letter, literal in (("N", "NaN"), ("I", "Infinity")):
        at = text.find(letter, 0, found)
        if at >= 0 and (at := text.find(literal, at, found + len(literal))) >= 0:
            found = at
    return found


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
    if _first_literal(text) < len(text):  # quoted first: one parse, not two
        attempts.insert(0, _quoted(text))
    for attempt in attempts:
        try:
            return fast.loads(attempt)
        except ValueError:
            continue
    return json.loads(text)


def loads_lines(text: str) -> list[object] | None:
    """One JSON value per line, parsed as a single array; None unless every line is exactly one.

    The common JSONL file (no blank, broken or doubled lines) thus costs one parse.
    Only the text from the line of the first NaN / Infinity on is quoted: in a run
    that blew up late, that is a small tail of the file.
    """
    if text[-4096:].rstrip()[-1:] not in ("}", "]"):
        return None  # empty, or a truncated last line: the line-by-line reader's case
    lines = text.count("\n") + (not text.endswith("\n"))
    cut = text.rfind("\n", 0, _first_literal(text)) + 1
    head, tail = text[:cut], _quoted(text[cut:])
    end = "null]" if text.endswith("\n") else ",null]"  # null takes the trailing comma
    try:
        parsed = loads("".join(("[", head.replace("\n", ","), tail.replace("\n", ","), end)))
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, list) or len(parsed) != lines + 1:
        return None
    parsed.pop()
    return parsed
