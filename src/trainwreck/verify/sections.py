"""Nested configs: DeepSpeed JSON sections and Accelerate YAML sub-configs.

DeepSpeed's top level is checked against every key name its config modules
define (a generous set: the aim is typos, not completeness); the sections with
pydantic models (`zero_optimization` and its offload blocks, `fp16`, `bf16`)
are checked field by field. Accelerate's top level is `ClusterConfig`; its
`fsdp_config`, `deepspeed_config`, ... take the keys `accelerate config` writes
and the matching `accelerate launch` flags.
"""

from __future__ import annotations

from collections.abc import Iterator

from trainwreck.verify.model import ClassSchema, FieldSchema, Schema

DEEPSPEED_SECTIONS = {
    "zero_optimization": "DeepSpeedZeroConfig",
    "zero_optimization.offload_optimizer": "DeepSpeedZeroOffloadOptimizerConfig",
    "zero_optimization.offload_param": "DeepSpeedZeroOffloadParamConfig",
    "fp16": "DeepSpeedFP16Config",
    "bf16": "DeepSpeedBF16Config",
}


def keyset_class(framework: str, name: str, keys: set[str], source: str = "") -> ClassSchema:
    """A pseudo-class whose fields are bare names (no type, no default)."""
    return ClassSchema(framework, name, {key: FieldSchema(key) for key in keys}, source)


def deepspeed_targets(key: str, schema: Schema) -> Iterator[tuple[str, ClassSchema]]:
    """(leaf key, class) pairs that judge `key`: the deepest section that has a model."""
    parts = key.split(".")
    for depth in (2, 1):
        section = ".".join(parts[:depth])
        cls_name = DEEPSPEED_SECTIONS.get(section)
        if cls_name and len(parts) > depth and cls_name in schema.classes:
            yield parts[depth], schema.classes[cls_name]
            return
    top = set(schema.key_sets.get("constants", ()))
    for cls in schema.classes.values():
        top |= cls.names()
    yield parts[0], keyset_class("deepspeed", "DeepSpeed config", top, schema.origin)


ACCELERATE_SECTIONS = (
    "fsdp_config",
    "deepspeed_config",
    "megatron_lm_config",
    "fp8_config",
    "ipex_config",
    "mpirun_config",
    "dynamo_config",
    "tp_config",
)


def accelerate_targets(key: str, schema: Schema) -> Iterator[tuple[str, ClassSchema]]:
    parts = key.split(".")
    flags = set(schema.key_sets.get("argparse", ()))
    if parts[0] in ACCELERATE_SECTIONS and len(parts) > 1:
        section = parts[0]
        prefix = section.removesuffix("_config") + "_"
        names = set(schema.key_sets.get(section, ())) | flags
        names |= {prefix + f for f in flags} | {f.removeprefix(prefix) for f in flags}
        if section in ("megatron_lm_config", "dynamo_config", "fp8_config", "tp_config"):
            return  # written under prefixes `accelerate config` composes at run time
        yield parts[1], keyset_class("accelerate", section, names, schema.origin)
        return
    top: set[str] = set(flags)
    for cls in schema.classes.values():
        top |= cls.names()
    yield parts[0], keyset_class("accelerate", "accelerate config", top, schema.origin)
