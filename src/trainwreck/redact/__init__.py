"""Secret redaction: tokens, keys and passwords a user hands in never reach an output,
and neither does terminal control (colour codes, OSC hyperlinks and clipboard
writes, bells, backspaces: `terminal.py`), which is neutralised first, so a
secret split by a colour code is still found.

It runs twice. Evidence readers redact each line, message, config value,
listing and file name as it enters, so no model object holds a secret; every
output (the report formats, `--patch`, `--script`, `env`, `check`, MCP answers)
is redacted again on its way out, as a second net. So the common case must be
cheap: a line with no secret costs one `lower()` and one Aho-Corasick pass for
every rule's trigger words, and a rule runs only when one of its own occurs
(see `rules.py`). Rules key on prefixes and names that training logs do not
otherwise contain, so SHA hashes, UUIDs, GPU ids and metric lines pass
untouched. The placeholder
(`<redacted:hf-token>`) says what was removed; the context around a secret (the
variable name, a URL's user and host) stays, and redacting twice changes nothing.
"""

from __future__ import annotations

from typing import TypeVar

from ahocorasick_rs import AhoCorasick

from trainwreck.redact.blocks import KEY_PLACEHOLDER, KEY_TRIGGER, KeyBlockLines, redact_key_blocks
from trainwreck.redact.names import ASSIGNMENTS, secret_label
from trainwreck.redact.rules import CONTEXTS, PLACEHOLDER_PREFIX, SHAPES, Rule, placeholder
from trainwreck.redact.terminal import neutralise

__all__ = [
    "KEY_PLACEHOLDER",
    "PLACEHOLDER_PREFIX",
    "KeyBlockLines",
    "redact",
    "redact_data",
    "redact_scalar",
    "redact_value",
]

# Shapes first, so `HF_TOKEN=hf_...` is labelled `hf-token`; the later rules skip
# a value that is already a placeholder.
RULES: tuple[Rule, ...] = (*SHAPES, *CONTEXTS, ASSIGNMENTS)
_TRIGGERS = tuple(dict.fromkeys((KEY_TRIGGER, *(t for rule in RULES for t in rule.triggers))))
_AUTOMATON = AhoCorasick(list(_TRIGGERS))
_RULE_TRIGGERS = tuple(frozenset(map(_TRIGGERS.index, rule.triggers)) for rule in RULES)
_KEY_TRIGGER_INDEX = _TRIGGERS.index(KEY_TRIGGER)
Scalar = TypeVar("Scalar")


def _lower(text: str) -> str:
    """Lowercase without changing length, so match offsets apply to `text`."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(char if len(char.lower()) != 1 else char.lower() for char in text)


def _apply(rule: Rule, text: str) -> str:
    subject = _lower(text) if rule.lowered else text
    pieces: list[str] = []
    last = 0
    for match in rule.pattern.finditer(subject):
        verdict = rule.judge(subject, match)
        if verdict is None or verdict[0] < last:
            continue
        start, end, replacement = verdict
        pieces += (text[last:start], replacement)
        last = end
    return "".join((*pieces, text[last:])) if pieces else text


def redact(text: str) -> str:
    """Replace every secret in `text` with a labelled placeholder, after neutralising its
    terminal control; idempotent."""
    text = neutralise(text)
    found = {
        match[0] for match in _AUTOMATON.find_matches_as_indexes(text.lower(), overlapping=True)
    }
    if not found:
        return text  # the common case: no rule can match
    if _KEY_TRIGGER_INDEX in found:
        text = redact_key_blocks(text)
    for rule, triggers in zip(RULES, _RULE_TRIGGERS, strict=True):
        if triggers & found:
            text = _apply(rule, text)
    return text


def _is_placeholder(text: str) -> bool:
    return text.startswith(PLACEHOLDER_PREFIX) and text.find(">") == len(text) - 1


def redact_value(name: str, value: str) -> str:
    """Redact `value` as the value of a setting called `name` (`HF_TOKEN`, `db.password`).

    A value the name marks as a secret is replaced whole (`correct horse battery
    staple` under `PASSPHRASE`); one the name does not is redacted as text.
    """
    shaped = redact(value)
    label = secret_label(name, value)
    if label is None or _is_placeholder(shaped):
        return shaped
    return placeholder(label)


def redact_scalar(name: str, value: Scalar) -> Scalar | str:
    """A config value of any type in the context of its name: `password: 12345678` too."""
    if isinstance(value, str):
        return redact_value(name, value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        label = secret_label(name, str(value))
        return placeholder(label) if label else value
    return value


def redact_data(value: object) -> object:
    """Redact every string in nested dicts, lists and tuples.

    A value in a dict is read with its key as context, so `{"token": "..."}` is
    redacted like `token=...`, and so are the items of a list under that key.
    """
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_data(key): _redact_item(key, item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_data(item) for item in value)
    return value


def _redact_item(key: object, item: object) -> object:
    if not isinstance(key, str):
        return redact_data(item)
    if isinstance(item, list | tuple):
        return type(item)(_redact_item(key, element) for element in item)
    if isinstance(item, dict):
        return redact_data(item)
    return redact_scalar(key, item)
