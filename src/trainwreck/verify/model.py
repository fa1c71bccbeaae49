"""The verifier's vocabulary: schemas read from snapshots or the live framework, and problems.

Plain frozen dataclasses: the verifier is a library that other parts (the
fix guard, the CLI) call many times, so its values stay cheap and hashable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]
Kind = Literal[
    "unknown-key",
    "wrong-class",
    "renamed",
    "removed",
    "deprecated",
    "not-yet",
    "type",
    "choice",
    "contradiction",
]


@dataclass(frozen=True)
class FieldSchema:
    """One accepted key: its annotation as text, default, help and allowed values."""

    name: str
    type: str = ""
    default: Any = None
    has_default: bool = False
    help: str | None = None
    choices: tuple[Any, ...] | None = None
    aliases: tuple[str, ...] = ()
    deprecated: bool = False
    replaced_by: str | None = None


@dataclass(frozen=True)
class ClassSchema:
    """A config class (or a section such as `zero_optimization`) of one framework."""

    framework: str
    name: str
    fields: dict[str, FieldSchema]
    source: str = ""

    def get(self, key: str) -> FieldSchema | None:
        """The field named `key` or carrying it as an alias."""
        found = self.fields.get(key)
        if found is not None:
            return found
        for item in self.fields.values():
            if key in item.aliases:
                return item
        return None

    def names(self) -> set[str]:
        return set(self.fields) | {a for f in self.fields.values() for a in f.aliases}


@dataclass(frozen=True)
class Schema:
    """Every class of one framework at one version, and how that version was chosen."""

    framework: str
    version: str
    classes: dict[str, ClassSchema]
    key_sets: dict[str, frozenset[str]] = field(default_factory=dict)
    origin: str = ""  # "installed 5.24.0 (live)" or "snapshot 4.46.3 (...)"
    note: str | None = None  # says which version was assumed, when not the user's own


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a config, with the fix when one is known."""

    kind: Kind
    key: str
    message: str
    suggestion: str | None = None
    severity: Severity = "error"
    line: int | None = None
    source: str | None = None  # where the schema fact comes from

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "key": self.key,
            "severity": self.severity,
            "line": self.line,
            "message": self.message,
            "suggestion": self.suggestion,
            "source": self.source,
        }


@dataclass(frozen=True)
class FileReport:
    """What checking one file found; `error` is set when it could not be read."""

    path: str
    kind: str  # training, peft, deepspeed, accelerate, vllm, mixed, model-config, launch
    frameworks: dict[str, str] = field(default_factory=dict)  # framework -> version used
    target: str | None = None  # the class the keys were checked against
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    error: str | None = None
    keys_checked: int = 0
