"""Checks of a model's own config.json: misspelled keys, attention-head arithmetic, RoPE type.

transformers keeps a config key its class does not know as a plain attribute
that nothing reads, so `num_attention_head` silently leaves the default in
place. The known keys per model type and release come from a static snapshot
(data/model_config_keys.json, written by scripts/snapshot_model_configs.py);
the RoPE types per release from data/rope_types.yaml.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from trainwreck.tables import read_yaml
from trainwreck.verify.contradictions import Found, Run
from trainwreck.verify.model import Problem

DATA = Path(__file__).parent / "data"
TYPO_CUTOFF = 0.85  # only a near-identical known key makes an unknown one a typo
SNAPSHOT_SOURCE = "transformers {version} config classes (scripts/snapshot_model_configs.py)"


@cache
def _snapshots() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "model_config_keys.json").read_text())
    return data


@cache
def _rope() -> dict[str, Any]:

    data: dict[str, Any] = read_yaml(DATA / "rope_types.yaml")
    return data


def _parse(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def _nearest(version: Version) -> str:
    """The newest snapshot not newer than `version`, else the oldest."""
    known = sorted(_snapshots(), key=Version)
    older = [v for v in known if Version(v) <= version]
    return older[-1] if older else known[0]


def _model_configs(run: Run) -> Iterator[tuple[int, str, Version | None]]:
    """(document index, model_type, transformers version the run assumes) per model config."""
    schema = run.schema_of("transformers")
    for index, report in enumerate(run.reports):
        model_type = run.documents[index].values.get("model_type")
        if report.kind == "model-config" and isinstance(model_type, str):
            yield index, model_type, _parse(schema.version)


def _problem(run: Run, index: int, problem: Problem) -> Found:
    return index, Problem(
        problem.kind,
        problem.key,
        problem.message,
        problem.suggestion,
        line=run.documents[index].line_of(problem.key),
        source=problem.source,
    )


def misspelled_keys(run: Run) -> Iterator[Found]:
    """Top-level keys that are not the model's and sit one typo away from one that is."""
    for index, model_type, version in _model_configs(run):
        snapshot = _snapshots()[_nearest(version or Version("0"))]
        model = snapshot["models"].get(model_type)
        if model is None:
            continue
        known = set(model["keys"]) | set(snapshot["base"])
        present = {key.split(".", 1)[0] for key in run.documents[index].values}
        for key in sorted(present - known):
            close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=TYPO_CUTOFF)
            if key.startswith("_") or not close or close[0] in present:
                continue
            release = _nearest(version or Version("0"))
            yield _problem(
                run,
                index,
                Problem(
                    "unknown-key",
                    key,
                    f"`{key}` is not a setting of {model['class']} (transformers {release}): "
                    f"it is kept as an attribute nothing reads, so the default stays in place",
                    close[0],
                    source=SNAPSHOT_SOURCE.format(version=release),
                ),
            )


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def head_arithmetic(run: Run) -> Iterator[Found]:
    """Heads that cannot split the hidden size, or query heads that KV heads cannot group."""
    for index, _, _ in _model_configs(run):
        values = run.documents[index].values
        prefixes = {
            k[: -len("num_attention_heads")] for k in values if k.endswith("num_attention_heads")
        }
        for prefix in sorted(prefixes):
            heads = _int(values.get(f"{prefix}num_attention_heads"))
            hidden = _int(values.get(f"{prefix}hidden_size"))
            groups = _int(values.get(f"{prefix}num_key_value_heads"))
            if not heads:
                continue
            if hidden and hidden % heads and values.get(f"{prefix}head_dim") is None:
                yield run.problem(
                    index,
                    f"{prefix}num_attention_heads",
                    f"hidden_size {hidden} is not divisible by num_attention_heads {heads}, and no "
                    "head_dim is set: the per-head size hidden_size / heads is not a whole number",
                    f"a num_attention_heads that divides {hidden}, or an explicit head_dim",
                )
            if groups and heads % groups:
                yield run.problem(
                    index,
                    f"{prefix}num_key_value_heads",
                    f"num_attention_heads {heads} is not a multiple of num_key_value_heads "
                    f"{groups}: grouped-query attention shares each key/value head among "
                    "num_attention_heads / num_key_value_heads query heads",
                    f"a divisor of {heads}",
                )


def _rope_row(version: Version) -> dict[str, Any] | None:
    for row in _rope()["releases"]:
        if SpecifierSet(row["versions"]).contains(version, True):
            return dict(row)
    return None


def rope_type(run: Run) -> Iterator[Found]:
    """A rope_scaling / rope_parameters type the run's transformers release does not know."""
    for index, _, version in _model_configs(run):
        row = _rope_row(version) if version else None
        if row is None:
            continue
        values = run.documents[index].values
        allowed = set(row["types"]) | {alias["name"] for alias in _rope()["aliases"]}
        for section in ("rope_scaling", "rope_parameters"):
            key = next(
                (f"{section}.{k}" for k in ("rope_type", "type") if f"{section}.{k}" in values),
                None,
            )
            value = values.get(key) if key else None
            if key is None or not isinstance(value, str) or value in allowed:
                continue
            source = _rope()["sources"][row["source"]]
            close = difflib.get_close_matches(value, row["types"], n=1)
            yield _problem(
                run,
                index,
                Problem(
                    "choice",
                    key,
                    f"RoPE type {value!r} is not one transformers {version} validates "
                    f"({', '.join(row['types'])}); loading the model fails",
                    close[0] if close else None,
                    source=source["url"],
                ),
            )
