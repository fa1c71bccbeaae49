"""Assignments: `NAME=value`, `name: value`, `"name": "value"`, `--name value`.

The name says whether a value is a secret (detect-secrets' KeywordDetector does
the same), and how sure that is decides what value counts:
- a name that ends in a secret's word (`DB_PASSWORD`, `client_secret`,
  `PASSPHRASE`, `GOOGLE_APPLICATION_CREDENTIALS`) takes any value that is written
  out, not a reference (`$HF_TOKEN`, `<HUB_TOKEN>`, `None`, `***`); so does a key or
  token named for what it opens (`API_TOKEN`, `hub_token`), if the value is one word;
- a name that only contains one (`password_min_length`, `SECRET_KEY_BASE`) takes
  any such value but a number;
- `*_TOKEN` and `*_KEY` with another word in front (`pad_token`, `sort_key`) take
  only a value that looks generated: letters and digits, 12 or more, no dots; so a
  tokenizer's `pad_token: "[PAD]"` stays; a bare `key` is never a secret's name
  (`key: lm_head.weight`), a bare `token` is one unless its value is a number.
Service-prefixed names (IBM, SoftLayer and Cloudant's `*_api_key`/`*_password`
plugins in detect-secrets, Azure's `AccountKey=`) are covered by the same words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from trainwreck.redact.rules import Rule, Verdict, placeholder

ValueTest = Callable[[str], bool]
_PASSWORD_WORDS = frozenset({"password", "passwords", "passwd", "passphrase"})
_SECRET_WORDS = frozenset({"secret", "secrets", "credential", "credentials"})
_TOKEN_WORDS = frozenset({"token", "key", "signature"})
_WHOLE_SECRET_WORDS = frozenset({"authorization", "auth", "sig"})  # `sig=`: a signed URL's
_AUTH_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "apikey"})  # before the secret
# A word before `token`/`key` that makes it a credential's name whatever its value.
_QUALIFIERS = frozenset(
    {
        *("api", "auth", "access", "refresh", "session", "bearer", "oauth", "private", "secret"),
        *("client", "account", "master", "encryption", "signing", "license", "subscription"),
        *("app", "bot", "personal", "security", "service", "tracking", "deploy", "ssh", "admin"),
        *("hf", "hub", "huggingface", "github", "gh", "gitlab", "wandb", "openai", "anthropic"),
    }
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# Names written as one word: `apikey`, `AUTHTOKEN`, `clientsecret`, `PGPASSWORD` (not `monkey`).
_COMPOUND = re.compile(
    rf"({'|'.join(sorted(_QUALIFIERS, key=len, reverse=True))})(key|token)"
    r"|(\w+?)(secrets?|credentials?|password|passwd|passphrase)"
)
_NOT_VALUES = frozenset(
    {"none", "null", "nil", "true", "false", "yes", "no", "undefined", "str", "bytes", "~"}
)
_MASK_CHARS = frozenset("*xX•.#-_")
_REFERENCE_START = ("$", "<", "{", "(", "[", "|", ">", "%(", "os.environ", "os.getenv", "getenv(")
_GENERATED = re.compile(r"(?=[^0-9]*[0-9])(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9_+/=%-]{12,}")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _words(name: str) -> list[str]:
    """Lowercase words of a name, splitting `snake_case`, `camelCase` and `apikey`."""
    words: list[str] = []
    for word in _WORD.findall(name):
        lowered = word.lower()
        compound = _COMPOUND.fullmatch(lowered)
        words += [part for part in compound.groups() if part] if compound else [lowered]
    return words


def is_literal(value: str) -> bool:
    """A value written out, not a reference to one, an empty setting or a mask."""
    text = value.strip()
    if not text or text.lower() in _NOT_VALUES or set(text) <= _MASK_CHARS:
        return False
    return not text.startswith(_REFERENCE_START)


def _not_a_number(value: str) -> bool:
    return is_literal(value) and not _NUMBER.fullmatch(value.strip())


def _one_word(value: str) -> bool:
    """Keys and tokens never hold a space; `hf_key: train_batch_size (calculated)` is prose."""
    return is_literal(value) and len(value.split()) == 1


def _not_a_scheme(value: str) -> bool:
    return is_literal(value) and value.strip().lower() not in _AUTH_SCHEMES


def _generated(value: str) -> bool:
    return bool(_GENERATED.fullmatch(value.strip()))


def _judgement(words: list[str]) -> tuple[str, ValueTest] | None:
    """The label of a secret named by `words`, and the test its value must pass."""
    last = words[-1]
    if words[-3:] == ["secret", "access", "key"]:
        return "aws-secret-key", is_literal
    if "wandb" in words and last == "key":
        return "wandb-key", is_literal
    if last in _PASSWORD_WORDS or (last == "pwd" and len(words) > 1):
        return "password", is_literal
    if last in _SECRET_WORDS:
        return "credential", is_literal
    if last in _WHOLE_SECRET_WORDS:
        return "credential", _not_a_scheme
    if last in _TOKEN_WORDS:
        named = {*words[:-1]} & (_QUALIFIERS | _PASSWORD_WORDS | _SECRET_WORDS)
        if named:
            return "credential", _one_word
        if words == ["token"]:
            return "credential", _not_a_number  # `token: 42` is a count
        return ("credential", _generated) if words != ["key"] else None
    if _PASSWORD_WORDS & {*words}:
        return "password", _not_a_number
    if _SECRET_WORDS & {*words}:
        return "credential", _not_a_number
    return None


@lru_cache(maxsize=4096)
def _judgement_of(name: str) -> tuple[str, ValueTest] | None:
    """Cached: a report's field names and a config's keys repeat."""
    words = _words(name)
    return _judgement(words) if words else None


def secret_label(name: str, value: str) -> str | None:
    """The placeholder label when `name = value` sets a secret, else None."""
    judgement = _judgement_of(name)
    if judgement is None:
        return None
    label, test = judgement
    return label if test(value) else None


# Only names holding one of these words are judged, so `step=120` costs nothing.
_GATE = r"(?=[\w.-]*?(?i:pass|pwd|token|secret|key|cred|auth|sig))"
_NAME = _GATE + r"[A-Za-z_][\w.-]*+"
# A name starts a word, and is neither a path's last part (`/etc/passwd: denied`) nor
# inside a shell expansion (`${HF_TOKEN:-default}`).
_NAME_START = r"(?<![\w.$/\\-])(?<!\$\{)"
# `secrets.yaml: not found` names a file, not a setting.
_FILE_NAME = re.compile(r"\.(?:json|ya?ml|toml|txt|log|py|cfg|ini|csv|md|sh|pem|key|env)$", re.I)
# A bare value ends at a space or a quote; `,;)]}` end it only where nothing follows,
# so `PASSWORD=a;b` loses all of `a;b` and `login(password=x, user=y)` keeps `, user`.
_BARE = r"(?!--)(?:[^\s\"'`<>&,;)\]}]|[,;)\]}](?=[^\s\"'`,;)\]}]))+"
_ASSIGNMENT = re.compile(
    _NAME_START + r"(?:(?P<flag>--" + _NAME + r")(?:[ \t]*=[ \t]*|[ \t]+)"
    r"|(?P<name>" + _NAME + r")(?P<quote>[\"']?)(?P<sep>[ \t]*[:=](?![=:])[ \t]*))"
    r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<bare>" + _BARE + r"))"
)


def _prose(subject: str, match: re.Match[str]) -> bool:
    """`password: must be 8 characters long`: a lowercase word after a colon, and more
    words after it, is a sentence; a setting's value ends its line."""
    value = match.group("bare")
    if value is None or ":" not in (match.group("sep") or "="):
        return False
    line_end = subject.find("\n", match.end())
    rest = subject[match.end() : line_end if line_end >= 0 else None]
    after = rest.strip()
    return value.isalpha() and value.islower() and bool(after) and not after.startswith("#")


def _judge_assignment(subject: str, match: re.Match[str]) -> Verdict:
    """The value's span and its placeholder; a bare number or a bare value after a
    quoted name (`"api_key": 1234`) gets quotes, so JSON and TOML still parse."""
    name = match.group("flag") or match.group("name")
    group = next(g for g in ("dq", "sq", "bare") if match.group(g) is not None)
    value = match.group(group)
    if _FILE_NAME.search(name) or _prose(subject, match):
        return None
    label = secret_label(name, value)
    if label is None:
        return None
    quote = match.group("quote") or ('"' if _NUMBER.fullmatch(value) else "")
    replacement = placeholder(label)
    return (*match.span(group), quote + replacement + quote if group == "bare" else replacement)


ASSIGNMENTS = Rule(
    ("pass", "pwd", "token", "secret", "key", "cred", "auth", "sig"),
    _ASSIGNMENT,
    _judge_assignment,
)
