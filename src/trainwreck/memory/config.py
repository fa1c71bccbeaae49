"""A model's `config.json`, read with the origin of every value the arithmetic uses.

Each value is either read from the file (`config.json:num_key_value_heads`) or
an architecture default that transformers applies when the key is missing,
marked `[assumed]` with the configuration source that sets it. The memory
report prints these origins next to every line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from trainwreck.errors import EvidenceError

MODELS_DIR = Path(__file__).parent / "models"
INDEX = MODELS_DIR / "index.yaml"  # the bundled models, each with its sources and notes
# The same index as run time reads it: written by scripts/build_kb.py, checked stale by a test.
COMPILED_INDEX = Path(__file__).parent / "data" / "models.json"
_TRANSFORMERS = "https://github.com/huggingface/transformers/blob/v5.24.0/src/transformers/models"


def default_source(model_type: str) -> str:
    """The transformers configuration file whose defaults fill missing keys."""
    return f"{_TRANSFORMERS}/{model_type}/configuration_{model_type}.py"


@dataclass
class ModelConfig:
    """A config.json plus where it came from; `get` records each value's origin."""

    values: Mapping[str, Any]
    name: str
    origins: dict[str, str] = field(default_factory=dict)

    @property
    def model_type(self) -> str:
        return str(self.values.get("model_type", "")).lower()

    def get(self, key: str, default: Any = None, *, required: bool = False) -> Any:
        """The value of `key`; a missing key falls back to the architecture default."""
        if key in self.values and self.values[key] is not None:
            self.origins.setdefault(key, f"config.json:{key}")
            return self.values[key]
        if required and default is None:
            raise EvidenceError(f"{self.name}: config.json has no {key!r}")
        self.origins.setdefault(key, f"[assumed] {default!r} ({default_source(self.model_type)})")
        return default

    def first(self, keys: tuple[str, ...], default: Any = None) -> Any:
        """The first of several spellings of one setting (`n_embd` / `hidden_size`)."""
        for key in keys:
            if key in self.values and self.values[key] is not None:
                return self.get(key)
        return self.get(keys[0], default, required=default is None)

    def origin(self, key: str) -> str:
        return self.origins.get(key, f"config.json:{key}")


@dataclass(frozen=True)
class BundledModel:
    """One model whose config.json ships with trainwreck, with its published size."""

    id: str
    file: str
    config_source: str
    published_params: int
    params_precision: str
    params_source: str
    stored_untied: bool = False  # the checkpoint also stores the tied output matrix


def dump_index(entries: Iterable[Mapping[str, Any]]) -> str:
    """The compiled index's text: the fields a BundledModel holds (the notes are for readers)."""
    kept = {f.name for f in fields(BundledModel)}
    return json.dumps(
        [{key: value for key, value in entry.items() if key in kept} for entry in entries],
        ensure_ascii=False,
        indent=0,
    )


@cache
def bundled() -> tuple[BundledModel, ...]:
    """The index of bundled configs, read once per process from its compiled JSON (PyYAML's
    pure-Python loader takes about 15 ms on index.yaml, and a short run asked four times)."""
    raw = json.loads(COMPILED_INDEX.read_text(encoding="utf-8"))
    return tuple(BundledModel(**entry) for entry in raw)


def load_config(name_or_path: str) -> ModelConfig:
    """A config from a file, a model directory, or a bundled hub id (offline)."""
    path = Path(name_or_path)
    try:
        if path.is_dir():
            path = path / "config.json"
        local = path.is_file()
    except (OSError, ValueError):  # a name past PATH_MAX (or holding a NUL) is no path
        local = False
    if local:
        return ModelConfig(_read_json(path), str(path))
    wanted = name_or_path.lower().rstrip("/")
    for model in bundled():
        full = model.id.lower()
        # a legacy id without an organisation (`gpt2`) names the hub's redirect target
        if wanted == full or ("/" not in wanted and wanted == full.rsplit("/", 1)[-1]):
            return ModelConfig(_read_json(MODELS_DIR / model.file), model.id)
    known = ", ".join(sorted(model.id for model in bundled()))
    raise EvidenceError(
        f"unknown model {name_or_path!r}: not a config.json path or directory, nor one of the "
        f"bundled models ({known})"
    )


def _read_json(path: Path) -> Mapping[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EvidenceError(f"{path}: cannot read a config.json: {exc}") from exc
    if not isinstance(data, dict):
        raise EvidenceError(f"{path}: a config.json holds a JSON object, not {type(data).__name__}")
    return data
