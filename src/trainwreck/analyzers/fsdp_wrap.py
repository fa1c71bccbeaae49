"""The FSDP layer class a run's config names for transformer auto-wrap.

"Could not find the transformer layer class to wrap" has two causes: the
config names a class this model lacks, or FSDP was switched on by a config
the run never meant to use. A wrap class written in the run's own config
points at the first; the finding carries the name so the report can echo it.
"""

from __future__ import annotations

from trainwreck.model import Evidence, Finding, Scalar

FINDING_IDS: tuple[str, ...] = ("config.fsdp_wrap_class",)

# Accelerate's FSDP plugin key and the HF Trainer's fsdp_config key (last dotted part).
WRAP_KEYS = frozenset({"fsdp_transformer_layer_cls_to_wrap", "transformer_layer_cls_to_wrap"})


def _wrap_class(values: dict[str, Scalar | list[Scalar]]) -> tuple[str, str] | None:
    for key, value in values.items():
        if key.rsplit(".", 1)[-1] in WRAP_KEYS and value not in (None, "", []):
            names = value if isinstance(value, list) else [value]
            # a launch command's argv keeps shell quotes around the value
            return key, ",".join(str(name).strip("'\"") for name in names)
    return None


def analyze(evidence: Evidence) -> list[Finding]:
    """A `config.fsdp_wrap_class` finding for the first config that names a wrap class."""
    for config in evidence.configs:
        found = _wrap_class(config.values)
        if found is not None:
            key, classes = found
            return [
                Finding(
                    id="config.fsdp_wrap_class",
                    title="The run's config names the FSDP auto-wrap layer class",
                    category="config_error",
                    summary=f"{config.source}: {key} = {classes}",
                    values={"key": key, "classes": classes, "file": config.source},
                )
            ]
    return []
