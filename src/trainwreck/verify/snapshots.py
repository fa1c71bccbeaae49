"""Bundled schema snapshots: src/trainwreck/verify/schemas/<framework>/<version>.json.

Written by scripts/snapshot_schemas.py from each release's source. A request for
a version without its own snapshot gets the nearest one at or below it (or the
oldest, when the version predates them all), and says so.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from trainwreck.verify.model import ClassSchema, FieldSchema, Schema

SCHEMAS_DIR = Path(__file__).parent / "schemas"
FRAMEWORKS = ("transformers", "trl", "peft", "accelerate", "deepspeed", "vllm")


def _version(text: str) -> Version:
    try:
        return Version(text)
    except InvalidVersion:
        return Version("0")


@cache
def versions(framework: str) -> tuple[str, ...]:
    """Snapshot versions of a framework, oldest first."""
    folder = SCHEMAS_DIR / framework
    names = [p.stem for p in folder.glob("*.json")] if folder.is_dir() else []
    return tuple(sorted(names, key=_version))


def nearest(framework: str, version: str | None) -> tuple[str, str | None]:
    """The snapshot version to use, and a note when it is not exactly `version`."""
    known = versions(framework)
    if not known:
        raise LookupError(f"no schema snapshots for {framework}")
    if version is None:
        return known[-1], f"no {framework} version given; assumed the newest snapshot {known[-1]}"
    if version in known:
        return version, None
    wanted = _version(version)
    below = [v for v in known if _version(v) <= wanted]
    chosen = below[-1] if below else known[0]
    return chosen, f"{framework} {version} has no snapshot; checked against {chosen}"


def _field(name: str, raw: dict[str, Any]) -> FieldSchema:
    return FieldSchema(
        name=name,
        type=raw.get("type", ""),
        default=raw.get("default"),
        has_default="default" in raw,
        help=raw.get("help"),
        choices=tuple(raw["choices"]) if raw.get("choices") else None,
        aliases=tuple(raw.get("aliases", ())),
        deprecated=bool(raw.get("deprecated")),
        replaced_by=raw.get("replaced_by"),
    )


def _url(data: dict[str, Any], file: str) -> str:
    repo, tag = data["source"]["repo"], data["source"]["tag"]
    return f"https://github.com/{repo}/blob/{tag}/{file}"


@cache
def load(framework: str, version: str) -> Schema:
    """One snapshot, exactly as bundled."""
    path = SCHEMAS_DIR / framework / f"{version}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    classes = {
        name: ClassSchema(
            framework,
            name,
            {key: _field(key, raw) for key, raw in body["fields"].items()},
            _url(data, body["file"]),
        )
        for name, body in data["classes"].items()
    }
    key_sets = {name: frozenset(keys) for name, keys in data.get("key_sets", {}).items()}
    origin = f"snapshot {framework} {version} ({data['source']['repo']} {data['source']['tag']})"
    return Schema(framework, version, classes, key_sets, origin)


def extends(framework: str, version: str) -> dict[str, list[str]]:
    """Classes whose bases live in another framework: {"SFTConfig": ["transformers:..."]}."""
    path = SCHEMAS_DIR / framework / f"{version}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: body.get("extends", []) for name, body in data["classes"].items()}
