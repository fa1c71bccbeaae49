"""Secret redaction: tokens and keys in user logs must never reach a report.

Evidence collection calls `redact` on every retained line and renderers call it
again on everything they output, so the common case must be cheap: a line with
no secret costs one `lower()` and a few substring tests, because each rule runs
only when one of its trigger words occurs, and every rule's regex starts with a
literal so the regex engine can skip ahead. Rules are anchored on a prefix or a
name that ordinary training logs do not contain, so SHA hashes, UUIDs and GPU
ids pass untouched. The placeholder (`<redacted:hf-token>`) says what was
removed; the context around a secret (the variable name, a URL's user and host)
stays, and redacting twice changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

# Returns the placeholder's label for a match, or None to leave the match alone.
Judge = Callable[[str, re.Match[str]], str | None]


class _Rule(NamedTuple):
    """Replace group `secret` of each match of `pattern`; the rest stays."""

    triggers: tuple[str, ...]  # lowercase words; the rule runs only if one occurs
    pattern: re.Pattern[str]
    judge: Judge
    lowered: bool = False  # match the lowercased text: names are case-insensitive


def _always(label: str) -> Judge:
    return lambda _subject, _match: label


# A value that is a secret, not a reference to one: not `<HUB_TOKEN>` (which is what a
# placeholder looks like too), not `$HF_TOKEN`, not `None` or a mask like `***`.
_VALUE = r"""(?!(?:none|null|\*+)(?:[\s"',;)\]}]|$))[^\s"'`<>$,;&)\]}]+"""
_NAMED = re.compile(
    r"""(?P<keyword>password|passwd|pwd|token|secret|key)"""
    rf"""(?P<sep>["']?\s*[:=]\s*["']?|\s+)(?=(?P<secret>{_VALUE}))"""
)
# Full names (lowercased, leading `--` removed) whose value is a secret, with the
# label and the shortest value taken for one. `token` and `secret` count only as
# whole names, so `pad_token=...` in a tokenizer dump is left alone.
_CREDENTIAL_SUFFIX = (
    r"api[_-]?key|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|private[_-]?key"
)
_NAMES: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(r"[\w-]*secret[_-]?access[_-]?key"), "aws-secret-key", 8),
    (re.compile(r"wandb[_-]api[_-]?key"), "wandb-key", 8),
    (re.compile(r"[\w-]*pass(?:word|wd)|(?:[\w-]*[_-])?pwd"), "password", 1),
    (
        re.compile(
            rf"[\w-]*(?:{_CREDENTIAL_SUFFIX})|token|secret"
            r"|(?:hf|hub|hugging_?face_hub|github|gh|wandb|openai|anthropic)[_-](?:token|key)"
        ),
        "credential",
        8,
    ),
)


def _judge_named(subject: str, match: re.Match[str]) -> str | None:
    """Label `name = value` (or `--name value`) when the name is a secret's."""
    start = match.start()
    while start > 0 and (subject[start - 1].isalnum() or subject[start - 1] in "_-"):
        start -= 1
    name = subject[start : match.end("keyword")]
    if not name.startswith("--") and not any(char in match.group("sep") for char in ":="):
        return None  # `key value` is prose unless it is a command-line flag
    secret = match.group("secret")
    for pattern, label, min_length in _NAMES:
        if pattern.fullmatch(name.lstrip("-")):
            plausible = label == "password" or any(char.isalpha() for char in secret)
            return label if plausible and len(secret) >= min_length else None
    return None


# Order matters: shapes first, so `HF_TOKEN=hf_...` is labelled `hf-token`; the name
# rule then skips the placeholder.
_RULES: tuple[_Rule, ...] = (
    # A lookbehind just after a literal checks the character before it: the pattern
    # still starts with the literal, which the regex engine searches for quickly.
    _Rule(
        ("hf_",), re.compile(r"(?P<secret>hf_(?<!\whf_)[A-Za-z0-9]{30,})\b"), _always("hf-token")
    ),
    _Rule(
        ("sk-ant-",),
        re.compile(r"(?P<secret>sk-ant-(?<!\wsk-ant-)[\w-]{20,})"),
        _always("anthropic-key"),
    ),
    # OpenAI keys mix case and digits; requiring both spares names like `sk-learn-...`.
    _Rule(
        ("sk-",),
        re.compile(
            r"(?P<secret>sk-(?<!\wsk-)(?:proj-|svcacct-|admin-)?"
            r"(?=[\w-]*[0-9])(?=[\w-]*[A-Z])[\w-]{20,})"
        ),
        _always("openai-key"),
    ),
    _Rule(
        ("akia", "asia"),
        re.compile(r"(?P<secret>(?:AKIA|ASIA)(?<!\w....)[A-Z0-9]{16})\b"),
        _always("aws-access-key-id"),
    ),
    _Rule(
        ("wandb",),
        re.compile(r"wandb\s+login\s+(?:--relogin\s+)?(?P<secret>[\w-]{40,})"),
        _always("wandb-key"),
        lowered=True,
    ),
    _Rule(
        ("authorization",),
        re.compile(r"""authorization["']?\s*[:=]\s*["']?bearer\s+(?P<secret>[^\s"'`<,;]+)"""),
        _always("bearer-token"),
        lowered=True,
    ),
    _Rule(
        ("bearer",),
        re.compile(r"bearer\s+(?P<secret>(?=[\w.~+/-]*[0-9])[\w.~+/-]{8,}=*)"),
        _always("bearer-token"),
        lowered=True,
    ),
    # scheme://user:password@host keeps user and host; a port has no `@` after it.
    _Rule(
        ("://",),
        re.compile(r"://[^\s:/@]+:(?P<secret>(?!<redacted:)[^\s/@]+)@"),
        _always("url-password"),
    ),
    _Rule(("pass", "pwd", "token", "secret", "key"), _NAMED, _judge_named, lowered=True),
)
_TRIGGERS = tuple(dict.fromkeys(trigger for rule in _RULES for trigger in rule.triggers))


def _lower(text: str) -> str:
    """Lowercase without changing length, so match offsets apply to `text`."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(char if len(char.lower()) != 1 else char.lower() for char in text)


def _apply(rule: _Rule, text: str) -> str:
    subject = _lower(text) if rule.lowered else text
    pieces: list[str] = []
    last = 0
    for match in rule.pattern.finditer(subject):
        start, end = match.span("secret")
        label = rule.judge(subject, match)
        if label is None or start < last:
            continue
        pieces += (text[last:start], f"<redacted:{label}>")
        last = end
    return "".join((*pieces, text[last:])) if pieces else text


def redact(text: str) -> str:
    """Replace every secret in `text` with a labelled placeholder; idempotent."""
    lowered = text.lower()
    if not any(trigger in lowered for trigger in _TRIGGERS):
        return text  # the common case: no rule can match
    for rule in _RULES:
        if any(trigger in lowered for trigger in rule.triggers):
            text = _apply(rule, text)
    return text


def redact_value(name: str, value: str) -> str:
    """Redact `value` as if it were written `name=value`: `("HF_TOKEN", "abc...")`."""
    prefix = f"{name}="
    redacted = redact(prefix + value)
    return redacted.removeprefix(prefix) if redacted.startswith(prefix) else redact(value)


def redact_data(value: object) -> object:
    """Redact every string in nested dicts, lists and tuples.

    A string in a dict is read with its key as context, so `{"token": "..."}`
    is redacted like `token=...`.
    """
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_data(key): _redact_item(key, item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_data(item) for item in value)
    return value


def _redact_item(key: object, item: object) -> object:
    if isinstance(key, str) and isinstance(item, str):
        return redact_value(key, item)
    return redact_data(item)
