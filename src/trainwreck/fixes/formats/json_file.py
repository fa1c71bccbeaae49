"""Patch values in a JSON file in place, so key order, indentation and layout stay the user's.

The text is walked once with the standard library's own decoder to learn where
each value starts and ends; a patch then replaces exactly those characters.
"""

from __future__ import annotations

import json

from trainwreck.fixes.formats.literals import Value, json_value

Spans = dict[str, tuple[int, int]]
_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\r\n"


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _walk(text: str, index: int, prefix: str, spans: Spans) -> int:
    """Record the span of every leaf value under `prefix`; return where the value ends."""
    index = _skip(text, index)
    opener = text[index : index + 1]
    if opener == "{":
        index = _skip(text, index + 1)
        while text[index] != "}":
            key, index = _DECODER.raw_decode(text, index)
            index = _skip(text, index)
            index = _walk(text, index + 1, f"{prefix}.{key}" if prefix else key, spans)
            index = _skip(text, index)
            if text[index] == ",":
                index = _skip(text, index + 1)
        return index + 1
    value, end = _DECODER.raw_decode(text, index)
    if isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        index = _skip(text, index + 1)
        position = 0
        while text[index] != "]":
            index = _skip(text, _walk(text, index, f"{prefix}.{position}", spans))
            position += 1
            if text[index] == ",":
                index = _skip(text, index + 1)
        return index + 1
    spans[prefix] = (index, end)
    return end


def value_spans(text: str) -> Spans:
    """Flat dotted key -> (start, end) of its value in `text`; {} if not a JSON object."""
    spans: Spans = {}
    try:
        json.loads(text)
        start = _skip(text, 0)
        if text[start : start + 1] == "{":
            _walk(text, start, "", spans)
    except (ValueError, IndexError, RecursionError):
        return {}
    return spans


def patch_json(text: str, new_values: dict[str, Value]) -> str:
    """`text` with each flat key's value replaced; keys not in the file are left out."""
    spans = value_spans(text)
    edits = sorted(
        ((spans[key], json_value(value)) for key, value in new_values.items() if key in spans),
        reverse=True,
    )
    for (start, end), replacement in edits:
        text = text[:start] + replacement + text[end:]
    return text
