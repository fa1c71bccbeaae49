"""Guard our own advice: does a key we recommend exist in the user's framework version?

A fix names a key as `Class.key` (`TrainingArguments.bf16`, `LoraConfig.r`,
`ds_config.zero_optimization.stage`, `EngineArgs.max_model_len`). The verdict
says whether that version has it, what its default is (a recommended value equal
to the default is no fix), what replaced it if it was renamed, which version was
assumed, and a one-line command the user can run to check it themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from trainwreck.verify.history import key_history, name_in
from trainwreck.verify.schema import schema_for
from trainwreck.verify.sections import deepspeed_targets

CLASS_FRAMEWORK = {
    "TrainingArguments": ("transformers", "transformers"),
    "Seq2SeqTrainingArguments": ("transformers", "transformers"),
    "SFTConfig": ("trl", "trl"),
    "DPOConfig": ("trl", "trl"),
    "GRPOConfig": ("trl", "trl"),
    "LoraConfig": ("peft", "peft"),
    "EngineArgs": ("vllm", "vllm.engine.arg_utils"),
}


@dataclass(frozen=True)
class KeyVerdict:
    path: str
    applicable: bool  # False: not a key of a framework we hold schemas for
    exists: bool = False
    framework: str | None = None
    version: str | None = None
    default: Any = None
    has_default: bool = False
    is_default: bool = False
    replaced_by: str | None = None
    note: str | None = None  # which version was assumed, when it was
    check_command: str | None = None
    alternative: str | None = None  # the same setting under the name this version uses

    @property
    def verified(self) -> bool:
        return self.applicable and self.exists


def _check_command(framework: str, module: str, cls: str, key: str) -> str:
    if framework == "vllm":
        return f"vllm serve --help=all | grep -- --{key.replace('_', '-')}"
    return (
        f'python -c "import dataclasses, {module}; '
        f"print('{key}' in {{f.name for f in dataclasses.fields({module}.{cls})}})\""
    )


def verify_key(
    path: str,
    after: Any = None,
    versions: Mapping[str, str] | None = None,
    use_live: bool = False,
) -> KeyVerdict:
    """The verdict on one recommended key; `after` is compared with the default."""
    head, _, key = path.partition(".")
    if head == "ds_config" and key:
        return _deepspeed(path, key, after, versions, use_live)
    if head not in CLASS_FRAMEWORK or not key or "." in key:
        return KeyVerdict(path, applicable=False)
    framework, module = CLASS_FRAMEWORK[head]
    schema = schema_for(framework, versions, use_live)
    cls = schema.classes.get(head)
    command = _check_command(framework, module, head, key)
    if cls is None:
        return KeyVerdict(path, False, note=f"{framework} {schema.version} has no {head}")
    field = cls.get(key)
    replaced = alternative = None
    if field is None:
        replaced = key_history(framework, head, key).replaced_by
        alternative = name_in(framework, cls, key)
    return KeyVerdict(
        path,
        applicable=True,
        exists=field is not None,
        framework=framework,
        version=schema.version,
        default=field.default if field else None,
        has_default=bool(field and field.has_default),
        is_default=bool(
            field and field.has_default and after is not None and after == field.default
        ),
        replaced_by=replaced or (field.replaced_by if field else None),
        note=schema.note,
        check_command=command,
        alternative=f"{head}.{alternative}" if alternative else None,
    )


def _deepspeed(
    path: str, key: str, after: Any, versions: Mapping[str, str] | None, use_live: bool
) -> KeyVerdict:
    schema = schema_for("deepspeed", versions, use_live)
    leaf, cls = next(deepspeed_targets(key, schema))
    field = cls.get(leaf)
    return KeyVerdict(
        path,
        applicable=True,
        exists=field is not None,
        framework="deepspeed",
        version=schema.version,
        default=field.default if field else None,
        has_default=bool(field and field.has_default),
        is_default=bool(
            field and field.has_default and after is not None and after == field.default
        ),
        replaced_by=field.replaced_by if field else None,
        note=schema.note,
        check_command=None,
    )
