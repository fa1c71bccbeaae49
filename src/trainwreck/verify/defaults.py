"""A knob's default in the user's framework version, read from the bundled schema snapshots.

The priors (`kb.priors`) say what a source recommends; this says what the user
already runs, so an answer can tell whether the two differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from trainwreck.verify.schema import schema_for


@dataclass(frozen=True)
class Default:
    """A knob's default in one framework version, and where that was read."""

    key: str
    version: str
    value: Any
    origin: str
    source: str
    note: str | None


def framework_default(key: str, versions: Mapping[str, str] | None = None) -> Default | None:
    """The default of `framework:Class.field` in the user's version (else the installed one,
    else the newest snapshot), read from the bundled schema snapshots."""
    framework, _, path = key.partition(":")
    class_name, _, field_name = path.partition(".")
    try:
        schema = schema_for(framework, versions or {}, use_live=False)
    except LookupError:
        return None
    owner = schema.classes.get(class_name)
    field = owner.get(field_name) if owner else None
    if owner is None or field is None or not field.has_default:
        return None
    return Default(key, schema.version, field.default, schema.origin, owner.source, schema.note)
