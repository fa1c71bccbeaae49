"""Read the schema from the installed framework itself, when it is the user's version.

Only dataclass fields and pydantic model fields are read; the package is
imported, so this runs only when the caller asks for the installed version.
Any failure (not importable, a missing class) gives None and the caller falls
back to the bundled snapshots.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
import re
import sys
from importlib import metadata
from typing import Any

from trainwreck.verify.model import ClassSchema, FieldSchema

LIVE_CLASSES: dict[str, tuple[tuple[str, str], ...]] = {
    "transformers": (
        ("transformers", "TrainingArguments"),
        ("transformers", "Seq2SeqTrainingArguments"),
    ),
    "trl": (("trl", "SFTConfig"), ("trl", "DPOConfig"), ("trl", "GRPOConfig")),
    "peft": (("peft", "LoraConfig"),),
    "accelerate": (
        ("accelerate.commands.config.config_args", "ClusterConfig"),
        ("accelerate.commands.config.config_args", "SageMakerConfig"),
    ),
    "deepspeed": (
        ("deepspeed.runtime.zero.config", "DeepSpeedZeroConfig"),
        ("deepspeed.runtime.zero.offload_config", "DeepSpeedZeroOffloadParamConfig"),
        ("deepspeed.runtime.zero.offload_config", "DeepSpeedZeroOffloadOptimizerConfig"),
    ),
    "vllm": (
        ("vllm.engine.arg_utils", "EngineArgs"),
        ("vllm.engine.arg_utils", "AsyncEngineArgs"),
    ),
}
_REPLACED = re.compile(r"(?:[Uu]se|in favou?r of|renamed to)\s+`{0,2}-{0,2}([A-Za-z_]\w*)`{0,2}")


def installed_version(framework: str) -> str | None:
    try:
        return metadata.version(framework)
    except metadata.PackageNotFoundError:
        return None


def _jsonable(value: Any) -> tuple[bool, Any]:
    if isinstance(value, enum.Enum):
        value = value.value
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False, None
    return True, value


def _choices(annotation: Any, module: Any) -> tuple[Any, ...] | None:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    if re.search(r"\b(list|List|dict|Dict|tuple|Tuple)\b", text):
        return None
    names = re.findall(r"\b(\w+)\b", text)
    enums = [getattr(module, n) for n in names if isinstance(getattr(module, n, None), type)]
    enums = [e for e in enums if issubclass(e, enum.Enum)]
    if len(enums) != 1:
        return None
    return tuple(dict.fromkeys(member.value for member in enums[0]))


def _help_field(name: str, text: Any, **extra: Any) -> FieldSchema:
    help_text = " ".join(str(text).split())[:300] if text else None
    deprecated = bool(help_text and "deprecat" in help_text.lower())
    match = _REPLACED.search(help_text or "") if deprecated else None
    replaced = match.group(1) if match and match.group(1) != name else None
    return FieldSchema(name, help=help_text, deprecated=deprecated, replaced_by=replaced, **extra)


def _dataclass_fields(cls: type, module: Any) -> dict[str, FieldSchema]:
    out: dict[str, FieldSchema] = {}
    for item in dataclasses.fields(cls):
        if not item.init:
            continue
        has, default = (
            _jsonable(item.default) if item.default is not dataclasses.MISSING else (False, None)
        )
        type_text = item.type if isinstance(item.type, str) else repr(item.type)
        choices = item.metadata.get("choices") or _choices(item.type, module)
        out[item.name] = _help_field(
            item.name,
            item.metadata.get("help"),
            type=type_text,
            default=default,
            has_default=has,
            choices=tuple(choices) if choices else None,
        )
    return out


def _pydantic_fields(cls: Any) -> dict[str, FieldSchema]:
    out: dict[str, FieldSchema] = {}
    for name, info in cls.model_fields.items():
        has, default = _jsonable(info.default)
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        out[name] = FieldSchema(
            name,
            type=repr(info.annotation),
            default=default,
            has_default=has,
            help=info.description,
            aliases=(info.alias,) if info.alias else (),
            deprecated=bool(extra.get("deprecated")),
            replaced_by=str(extra["new_param"]) if extra.get("new_param") else None,
        )
    return out


def live_classes(framework: str) -> dict[str, ClassSchema] | None:
    """The installed framework's config classes, or None when they cannot be read."""
    version = installed_version(framework)
    if version is None or framework not in LIVE_CLASSES:
        return None
    out: dict[str, ClassSchema] = {}
    try:
        for module_name, class_name in LIVE_CLASSES[framework]:
            module = importlib.import_module(module_name)
            cls: type = getattr(module, class_name)
            owner = sys.modules.get(cls.__module__, module)
            fields = (
                _dataclass_fields(cls, owner)
                if dataclasses.is_dataclass(cls)
                else _pydantic_fields(cls)
            )
            out[class_name] = ClassSchema(
                framework, class_name, fields, f"installed {framework} {version}: {cls.__module__}"
            )
    except Exception:  # a broken install must not break checking; snapshots remain
        return None
    return out
