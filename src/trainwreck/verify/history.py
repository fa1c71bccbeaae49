"""How a key changed across a framework's snapshots: added, deprecated, renamed, removed."""

from __future__ import annotations

from dataclasses import dataclass

from trainwreck.verify.model import ClassSchema
from trainwreck.verify.snapshots import _version, load, versions


@dataclass(frozen=True)
class KeyHistory:
    """The snapshot versions of one class that accept `key`, oldest first."""

    framework: str
    class_name: str
    key: str
    present_in: tuple[str, ...]
    replaced_by: str | None

    @property
    def known(self) -> bool:
        return bool(self.present_in)

    def before(self, version: str) -> bool:
        """Only releases older than `version` accept the key (it was removed)."""
        return bool(self.present_in) and _version(self.present_in[-1]) < _version(version)

    def after(self, version: str) -> bool:
        """Only releases newer than `version` accept the key (it was added later)."""
        return bool(self.present_in) and _version(self.present_in[0]) > _version(version)

    def removed_in(self) -> str | None:
        """The first snapshot after the last one that has the key."""
        all_versions = versions(self.framework)
        if not self.present_in or self.present_in[-1] == all_versions[-1]:
            return None
        return all_versions[all_versions.index(self.present_in[-1]) + 1]


def key_history(framework: str, class_name: str, key: str) -> KeyHistory:
    present: list[str] = []
    replaced_by: str | None = None
    for version in versions(framework):
        cls = load(framework, version).classes.get(class_name)
        found = cls.get(key) if cls else None
        if found is not None:
            present.append(version)
            replaced_by = found.replaced_by or replaced_by
    return KeyHistory(framework, class_name, key, tuple(present), replaced_by)


def name_in(framework: str, cls: ClassSchema, key: str) -> str | None:
    """What `cls` (one version's class) calls `key` when that version lacks it under this name.

    Either the key was renamed and `cls` is newer (its successor, e.g. `evaluation_strategy`
    became `eval_strategy` in transformers 4.41), or `key` is the new name and `cls` is older
    (the name it replaced, which some snapshot marks `replaced_by: key`).
    """
    if cls.get(key) is not None:
        return None
    successor = key_history(framework, cls.name, key).replaced_by
    found = cls.get(successor) if successor else None
    if found is not None:
        return found.name
    for version in versions(framework):
        other = load(framework, version).classes.get(cls.name)
        for field in other.fields.values() if other else ():
            if field.replaced_by == key and cls.get(field.name) is not None:
                return field.name
    return None


def classes_with(key: str) -> list[tuple[str, str]]:
    """(framework, class) pairs whose newest snapshot having the class accepts `key`."""
    found: list[tuple[str, str]] = []
    for framework in ("transformers", "trl", "peft", "vllm", "accelerate", "deepspeed"):
        known = versions(framework)
        if not known:
            continue
        for name, cls in load(framework, known[-1]).classes.items():
            if cls.get(key) is not None and (framework, name) not in found:
                found.append((framework, name))
    return found
