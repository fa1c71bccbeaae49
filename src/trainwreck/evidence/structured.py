"""JSON, YAML and TOML parsed within the nesting and alias limits.

Only data loaders are used (nothing the user hands in is executed). Each loader
raises its parser's own error on bad syntax, so a caller can name the line, and
LimitExceeded past a limit: Python's parsers recurse, so a document nested a
thousand levels deep, or a YAML alias that contains itself, would otherwise end
in a RecursionError.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

import yaml

from trainwreck.limits import (
    MAX_NESTING_DEPTH,
    MAX_YAML_ALIASES,
    LimitExceeded,
    nesting_exceeded,
)
from trainwreck.tables import SAFE_LOADER

TOO_DEEP = f"nested deeper than {MAX_NESTING_DEPTH} levels (or into itself); not read"


def _bounded(parse: Any, text: str) -> Any:
    try:
        data = parse(text)
    except RecursionError:
        raise LimitExceeded(TOO_DEEP) from None
    except ValueError as error:  # not a syntax error: an int of more than 4,300 digits
        if isinstance(error, json.JSONDecodeError | tomllib.TOMLDecodeError):
            raise
        raise LimitExceeded(f"{str(error).split(';')[0]}; not read") from None
    if nesting_exceeded(data):
        raise LimitExceeded(TOO_DEEP)
    return data


def load_json(text: str) -> Any:
    """json.loads within the nesting limit; ValueError on bad JSON."""
    return _bounded(json.loads, text)


def load_toml(text: str) -> Any:
    """tomllib.loads within the nesting limit; TOMLDecodeError (a ValueError) on bad TOML."""
    return _bounded(tomllib.loads, text)


def load_yaml(text: str) -> Any:
    """yaml safe_load (libyaml's when built) within the alias and nesting limits."""
    if "&" in text:  # no anchor, no alias: the common case skips the count
        aliases = sum(isinstance(event, yaml.AliasEvent) for event in yaml.parse(text, SAFE_LOADER))
        if aliases > MAX_YAML_ALIASES:
            raise LimitExceeded(f"more than {MAX_YAML_ALIASES} YAML aliases; not read")
    return _bounded(lambda source: yaml.load(source, SAFE_LOADER), text)  # a safe loader
