"""Config keys and command-line flags that differ between two runs, defaults filled in.

A key one run sets and the other leaves out is compared against the framework's
default in that run's version (the bundled schema snapshots), so `weight_decay: 0.0`
against no weight_decay at all is no change. Keys are named as the schema names them:
its alias table turns a key a config spells another way into the field it sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from trainwreck.compare.model import Change, Value
from trainwreck.context.versions import versions_of
from trainwreck.fixes.compare import same
from trainwreck.fixes.targets import normal_name
from trainwreck.model import Evidence
from trainwreck.verify.guard import CLASS_FRAMEWORK
from trainwreck.verify.model import FieldSchema
from trainwreck.verify.schema import schema_for

SettingKind = Literal["config", "flag"]


@dataclass(frozen=True)
class Setting:
    """One value a run sets, under the name its framework's schema gives it."""

    kind: SettingKind
    key: str
    value: Value
    source: str


@dataclass(frozen=True)
class Run:
    """What `settings` reads of one run: its settings and its framework versions."""

    settings: dict[tuple[SettingKind, str], Setting]
    versions: dict[str, str]


def _field(key: str, versions: Mapping[str, str]) -> tuple[FieldSchema, str] | None:
    """The schema field a plain key sets, in the first config class of an installed framework
    that has it (the alias table included), with `framework version` for the report."""
    if "." in key:
        return None
    for class_name, (framework, _) in CLASS_FRAMEWORK.items():
        if framework not in versions:
            continue
        try:
            schema = schema_for(framework, versions, use_live=False)
        except LookupError:
            continue
        owner = schema.classes.get(class_name)
        found = owner.get(key) if owner else None
        if found is not None:
            return found, f"{framework} {schema.version} {class_name}"
    return None


def _kind(source: str, logs: set[str]) -> SettingKind:
    """A launch line's arguments (`train.log:3`) are flags; a file's keys are config."""
    path, _, line = source.rpartition(":")
    return "flag" if line.isdigit() and path in logs else "config"


def read_run(evidence: Evidence) -> Run:
    """Each setting of a run, first mention winning, keyed by kind and schema name."""
    versions = versions_of(evidence)
    logs = {item.path for item in evidence.files if item.kind == "log"}
    found: dict[tuple[SettingKind, str], Setting] = {}
    for config in evidence.configs:
        kind = _kind(config.source, logs)
        for key, value in config.values.items():
            field = _field(normal_name(key), versions)
            name = field[0].name if field else normal_name(key)
            found.setdefault((kind, name), Setting(kind, name, value, config.source))
    return Run(found, versions)


def _default(key: str, run: Run) -> tuple[Value, str] | None:
    """A key's default in the run's framework version, with where that was read."""
    field = _field(key, run.versions)
    if field is None or not field[0].has_default:
        return None
    value = field[0].default
    if isinstance(value, str | int | float | bool | list) or value is None:
        return value, field[1]
    return None


def setting_changes(good: Run, bad: Run) -> list[Change]:
    """Each config key and flag whose value differs, a missing side read as its default."""
    changes = []
    for kind, key in sorted(good.settings.keys() | bad.settings.keys()):
        defaults = _default(key, good), _default(key, bad)
        notes, sides = [], []
        for run, default, side in ((good, defaults[0], "GOOD"), (bad, defaults[1], "BAD")):
            setting = run.settings.get((kind, key))
            if setting is not None:
                sides.append(setting.value)
            else:
                sides.append(default[0] if default else None)
                if default:
                    notes.append(f"{side} leaves it at the default of {default[1]}")
        if same(sides[0], sides[1]):  # equal, or one run states the default the other implies
            continue
        to_default = defaults[1] is not None and same(sides[1], defaults[1][0])
        changes.append(
            Change(
                kind=kind,
                key=key,
                before=sides[0],
                after=sides[1],
                why="; ".join(notes),
                to_default=to_default,
            )
        )
    return changes
