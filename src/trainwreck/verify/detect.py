"""Which framework a config file belongs to, from how many of its keys each one knows.

A file is one framework's config when most of its top-level keys are fields of
one class (a TrainingArguments YAML, a vLLM engine config), or when it has a key
only that framework uses (`zero_optimization`, `compute_environment`,
`peft_type`). Recipes that mix several (LLaMA-Factory, axolotl) are `mixed`:
each key is then attributed to whichever class knows it.
"""

from __future__ import annotations

from collections.abc import Callable

from trainwreck.limits import MAX_TYPO_KEYS
from trainwreck.verify.keys import owners, typo_of
from trainwreck.verify.model import ClassSchema, Schema
from trainwreck.verify.read import Document

TRAINING_CLASSES = (
    ("transformers", "TrainingArguments"),
    ("transformers", "Seq2SeqTrainingArguments"),
    ("trl", "SFTConfig"),
    ("trl", "DPOConfig"),
    ("trl", "GRPOConfig"),
)
VLLM_CLASSES = ("EngineArgs", "AsyncEngineArgs", "FrontendArgs")
STRONG_FIT = 0.75
_DEEPSPEED_MARKERS = {"zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size"}
_ACCELERATE_MARKERS = {"compute_environment", "distributed_type"}
_MODEL_MARKERS = {"architectures", "hidden_size", "num_hidden_layers", "n_layer", "d_model"}

SchemaOf = Callable[[str], Schema]


def top_keys(document: Document) -> set[str]:
    return {key.split(".", 1)[0].replace("-", "_") for key in document.values}


def _fit(keys: set[str], names: set[str], family: tuple[tuple[str, str], ...] = ()) -> float:
    """The share of keys a class explains: its own, a near-miss, or an old name of `family`."""
    if not keys:
        return 0.0

    explained = keys & names
    for index, key in enumerate(sorted(keys - names)):
        old = any(owner in family for owner in owners(key))
        if old or (index < MAX_TYPO_KEYS and typo_of(key, names)):
            explained.add(key)
    return len(explained) / len(keys)


def companions(schema_of: SchemaOf) -> list[ClassSchema]:
    """Classes TRL's scripts parse beside the training config (model and script args)."""
    trl = schema_of("trl")
    return [trl.classes[name] for name in ("ModelConfig", "ScriptArguments") if name in trl.classes]


def vllm_names(schema: Schema) -> set[str]:
    names: set[str] = set(schema.key_sets.get("argparse", ()))
    for name in VLLM_CLASSES:
        if name in schema.classes:
            names |= schema.classes[name].names()
    return names


def best_training_class(
    keys: set[str], schema_of: SchemaOf, only: str | None = None
) -> tuple[ClassSchema | None, float]:
    """The training config class fitting most keys; ties go to the plainest class."""
    best: tuple[ClassSchema | None, float] = (None, -1.0)
    for framework, name in TRAINING_CLASSES:
        if only and only not in (framework, f"{framework}:{name}"):
            continue
        cls = schema_of(framework).classes.get(name)
        if cls is not None:
            extra = set().union(*(c.names() for c in companions(schema_of)))
            family = ((framework, name), ("transformers", "TrainingArguments"))
            fit = _fit(keys, cls.names() | extra, family)
            if fit > best[1]:
                best = (cls, fit)
    return best


def detect(document: Document, schema_of: SchemaOf, forced: str | None = None) -> str:
    """One of: model-config, deepspeed, accelerate, peft, vllm, training, mixed."""
    if forced:
        framework = forced.split(":", 1)[0]
        return "training" if framework in ("transformers", "trl") else framework
    if document.launcher == "vllm":
        return "vllm"
    keys = top_keys(document)
    if "model_type" in keys and keys & _MODEL_MARKERS and "peft_type" not in keys:
        return "model-config"
    if keys & _DEEPSPEED_MARKERS and not keys & _ACCELERATE_MARKERS:
        return "deepspeed"
    if keys & _ACCELERATE_MARKERS:
        return "accelerate"
    if "peft_type" in keys:
        return "peft"
    lora = schema_of("peft").classes.get("LoraConfig")
    if (
        lora
        and {"r", "lora_alpha"} & keys
        and _fit(keys, lora.names(), (("peft", "LoraConfig"),)) >= STRONG_FIT
    ):
        return "peft"
    _, training_fit = best_training_class(keys, schema_of)
    vllm_fit = _fit(keys, vllm_names(schema_of("vllm")), tuple(("vllm", n) for n in VLLM_CLASSES))
    if max(training_fit, vllm_fit) >= STRONG_FIT:
        return "training" if training_fit >= vllm_fit else "vllm"
    if document.launcher is not None and training_fit >= 0.5:
        return "training"
    return "mixed"
