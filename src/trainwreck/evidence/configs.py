"""Parse configs into flat dotted keys: JSON, YAML, TOML and `--key value` argv.

Flat keys (`zero_optimization.stage`) let analyzers and fixes name one setting
exactly. Only data loaders are used (`structured`: YAML's safe loader, `json`,
`tomllib`, each within the nesting limit): nothing the user hands in is executed.
Each value is redacted with its key as context, so `wandb.api_key` or `--hub_token`
never holds a secret.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator, Mapping

import yaml

from trainwreck.evidence.structured import load_json, load_toml, load_yaml
from trainwreck.limits import LimitExceeded
from trainwreck.model import Scalar
from trainwreck.redact import redact_scalar

Values = dict[str, Scalar | list[Scalar]]
MAX_KEYS = 5000


def _scalar(key: str, value: object) -> Scalar:
    if value is None or isinstance(value, bool | int | float):
        return redact_scalar(key, value)
    return redact_scalar(key, str(value))


def flatten(data: object, prefix: str = "", out: Values | None = None) -> Values:
    """Nested mappings -> {"a.b.c": value}; lists of scalars stay lists."""
    out = {} if out is None else out
    if len(out) >= MAX_KEYS:
        return out
    if isinstance(data, Mapping):
        for key, value in data.items():
            flatten(value, f"{prefix}.{key}" if prefix else str(key), out)
    elif isinstance(data, list):
        if all(not isinstance(item, Mapping | list) for item in data):
            out[prefix] = [_scalar(prefix, item) for item in data]
        else:
            for index, item in enumerate(data):
                flatten(item, f"{prefix}.{index}", out)
    elif prefix:
        out[prefix] = _scalar(prefix, data)
    return out


def parse_config(name: str, text: str) -> Values:
    """Parse by suffix (YAML when neither JSON nor TOML); ValueError saying why not."""
    lower = name.lower().removesuffix(".gz").removesuffix(".xz")
    try:
        if lower.endswith(".toml"):
            data: object = load_toml(text)
        elif lower.endswith(".json"):
            data = load_json(text)
        else:
            data = load_yaml(text)
    except LimitExceeded:
        raise
    except (ValueError, yaml.YAMLError):
        raise ValueError("not a valid config (JSON/YAML/TOML)") from None
    if not isinstance(data, Mapping):
        raise ValueError("not a valid config (JSON/YAML/TOML): no mapping of keys")
    return flatten(data)


def parse_config_text(name: str, text: str) -> Values | None:
    """parse_config, or None when the text does not parse or is past a limit."""
    try:
        return parse_config(name, text)
    except ValueError:
        return None


_LAUNCH = re.compile(
    r"(?:^|\s)(?:torchrun|accelerate launch|deepspeed|python3?(?: -m [\w.]+)?|vllm serve)\s+\S*"
)


_FLAG = re.compile(r"(?:^|\s)--[A-Za-z][\w-]*(?:=|\s)")


def coerce(value: str, name: str) -> Scalar:
    """A setting's text value as the scalar it spells: bool, int, float, else the text,
    each redacted as the value of `name`."""
    lowered = value.lower()
    if lowered in {"true", "false"}:
        return lowered == "true"
    for kind in (int, float):
        try:
            return redact_scalar(name, kind(value))
        except ValueError:
            continue
    return redact_scalar(name, value)


def _unquoted_markup(word: str) -> str:
    """A word without the Markdown backtick a pasted command carries at its edge
    (`` `vllm serve m --gpu-memory-utilization 0.85` `` ends in `0.85``): a lone backtick
    is markup, since a shell backtick always comes in pairs."""
    return word.strip("`") if word.count("`") % 2 else word


def parse_argv(command: str) -> Values:
    """`--key value`, `--key=value` and bare `--flag` from a launch command line."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    words = [_unquoted_markup(word) for word in words]
    values: Values = {}
    for index, word in enumerate(words):
        if not word.startswith("--") or len(word) < 3:
            continue
        key, _, inline = word[2:].partition("=")
        if inline:
            values[key] = coerce(inline, key)
        elif index + 1 < len(words) and not words[index + 1].startswith("--"):
            values[key] = coerce(words[index + 1], key)
        else:
            values[key] = True
    return values


def joined_commands(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """Join shell lines continued with a trailing backslash (consecutive lines only)."""
    start, previous = 0, -1
    parts: list[str] = []
    for number, text in lines:
        if parts and number != previous + 1:
            yield start, " ".join(parts)
            parts = []
        if not parts:
            start = number
        parts.append(text.rstrip().removesuffix("\\").strip())
        previous = number
        if not text.rstrip().endswith("\\"):
            yield start, " ".join(parts)
            parts = []
    if parts:
        yield start, " ".join(parts)


def is_launch_line(text: str) -> bool:
    """A command line that started the run and carries its arguments."""
    if len(text) > 4000 or "--" not in text:
        return False
    return bool(_LAUNCH.search(text)) or len(_FLAG.findall(text)) >= 3
