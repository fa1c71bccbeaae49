"""What kind of run failed and how: the context model, read before ranking."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainwreck.model.base import Category, Frozen

Hardware = Literal["cuda", "rocm", "mps", "tpu", "cpu"]
Phase = Literal[
    "install/import",
    "start-up",
    "first step",
    "training",
    "evaluation",
    "checkpoint save/load",
    "generation/serving",
]


class StatedClass(Frozen):
    """A failure class the user or the logs state, with the words that state it."""

    category: Category
    source: Literal["symptoms", "logs"]
    words: tuple[str, ...] = ()


class VersionChange(Frozen):
    """A version the run worked with and one it fails with: the strongest clue a user gives."""

    package: str
    good: str | None = None
    bad: str | None = None
    text: str
    source: str = "symptoms"


class RunContext(Frozen):
    """What kind of run failed and how, read before ranking (DESIGN.md, context model).

    `frameworks` maps each framework seen to where it was seen; a page for a
    framework that is absent does not rank on a shared word alone. `denied` holds the
    setups the user says the run does not use (fp16, DeepSpeed, LoRA, ...), `unset`
    those a whole script shown never turns on (fp16 in a float32 script);
    `memory_grows` the words that say memory climbs over the run (the OOM's course).
    """

    stated: StatedClass | None = None
    logged: StatedClass | None = None
    frameworks: dict[str, str] = Field(default_factory=dict)
    hardware: Hardware | None = None
    phase: Phase | None = None
    versions: dict[str, str] = Field(default_factory=dict)
    version_changes: tuple[VersionChange, ...] = ()
    denied: tuple[str, ...] = ()
    unset: tuple[str, ...] = ()
    memory_grows: tuple[str, ...] = ()
