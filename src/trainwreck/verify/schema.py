"""The schema to check against: the installed framework when it is the user's version,
else the nearest bundled snapshot, with TRL's classes completed by transformers' fields."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache

from trainwreck.verify import live, snapshots
from trainwreck.verify.model import ClassSchema, Schema

TRL_TRAINING = ("SFTConfig", "DPOConfig", "GRPOConfig")  # they extend TrainingArguments


@lru_cache(maxsize=32)
def _own(framework: str, version: str | None, use_live: bool) -> Schema:
    installed = live.installed_version(framework)
    wanted = version or installed
    chosen, note = snapshots.nearest(framework, wanted)
    base = snapshots.load(framework, chosen)
    if use_live and wanted is not None and wanted == installed and chosen != wanted:
        classes = live.live_classes(framework)
        if classes:
            merged = {**base.classes, **classes}
            origin = f"installed {framework} {installed} (fields read from the live classes)"
            return Schema(framework, installed, merged, base.key_sets, origin)
    if version is None and installed is not None and note:
        note = f"{framework} {installed} is installed; {note.split('; ', 1)[-1]}"
    return replace(base, note=note)


def schema_for(
    framework: str, versions: Mapping[str, str] | None = None, use_live: bool = False
) -> Schema:
    """The schema of `framework` at the user's version (from `versions`, else installed)."""
    versions = versions or {}
    schema = _own(framework, versions.get(framework), use_live)
    if framework != "trl":
        return schema
    base = _own("transformers", versions.get("transformers"), use_live)
    training = base.classes.get("TrainingArguments")
    if training is None:
        return schema
    classes = {
        name: ClassSchema(cls.framework, name, {**training.fields, **cls.fields}, cls.source)
        if name in TRL_TRAINING
        else cls
        for name, cls in schema.classes.items()
    }
    note = "; ".join(n for n in (schema.note, base.note) if n) or None
    return replace(schema, classes=classes, note=note)
