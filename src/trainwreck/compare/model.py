"""What `compare` returns: the changes between a good run and a bad one, and where the curves part.

Plain frozen dataclasses: a comparison is not part of the diagnosis JSON contract,
and `render` turns it into Markdown or JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from trainwreck.model import Arithmetic, Scalar

# package: an installed distribution; machine: a fact of the machine or torch build
# (driver, CUDA); config: a key of a config file; flag: a command-line argument.
ChangeKind = Literal["package", "machine", "config", "flag"]
Value = Scalar | list[Scalar]


@dataclass(frozen=True)
class Change:
    """One setting or version that differs; `before` is GOOD's, `after` BAD's (None: absent)."""

    kind: ChangeKind
    key: str
    before: Value
    after: Value
    score: float = 0.0
    pages: tuple[str, ...] = ()  # the KB pages that know what this change can cause
    why: str = ""  # why it ranks where it does, in words
    to_default: bool = False  # BAD's value is the framework's default in BAD's version


@dataclass(frozen=True)
class Departure:
    """Where BAD's curve of one metric first leaves GOOD's band, or that it never does."""

    metric: str
    compared_steps: int  # steps both runs logged
    step: int | None = None  # None: BAD stayed inside GOOD's band at every compared step
    direction: Literal["above", "below", "non-finite"] | None = None
    arithmetic: Arithmetic | None = None


@dataclass(frozen=True)
class Comparison:
    """The ranked changes (highest score first), the curves, and what could not be read."""

    changes: tuple[Change, ...]
    curves: tuple[Departure, ...] = ()
    gaps: tuple[str, ...] = ()

    def of_kinds(self, kinds: set[str]) -> tuple[Change, ...]:
        """The changes whose kind is one of `kinds` (for `--fail-on`)."""
        return tuple(change for change in self.changes if change.kind in kinds)
