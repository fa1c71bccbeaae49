"""Checks that need the model's own config.json: LoRA targets, the context length, and the
tensor-parallel size vLLM accepts for the model's heads.

The model comes from a config.json checked in the same run, or from a model
id in the config (`model_name_or_path`, `base_model`, `model`) that matches a
bundled config. Nothing is downloaded.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from trainwreck.errors import EvidenceError
from trainwreck.memory.architectures import shape_of
from trainwreck.memory.config import ModelConfig, load_config
from trainwreck.memory.tensor_parallel import (
    VLLM_HEADS_CHECK_URL,
    legal_sizes,
    tensor_parallel_problem,
)
from trainwreck.verify.contradictions import _REGEX, Found, Run

MODEL_KEYS = ("base_model_name_or_path", "model_name_or_path", "base_model", "model")
TARGET_KEYS = ("target_modules", "lora_target_modules", "lora_target")
WILDCARDS = {"all-linear", "all", "all_linear"}


def _model(run: Run, index: int) -> ModelConfig | None:
    for other, report in enumerate(run.reports):
        if report.kind == "model-config":
            document = run.documents[other]
            return ModelConfig(document.data, document.path)
    document = run.documents[index]
    names = [run.leaf(index, key) for key in MODEL_KEYS] + document.positional[:1]
    for name in names:
        if isinstance(name, str) and "/" in name and not _is_path(name):
            try:
                return load_config(name)
            except EvidenceError:
                continue
    return None


def _is_path(name: str) -> bool:
    """Whether a model name is a local path; one past PATH_MAX (or with a NUL) is not."""
    try:
        return Path(name).exists()
    except (OSError, ValueError):
        return False


def _targets(value: object) -> list[str] | None:
    if isinstance(value, list):
        names = [str(v) for v in value]
    elif isinstance(value, str):
        names = [part.strip() for part in value.split(",") if part.strip()]
    else:
        return None
    if any(name in WILDCARDS or set(name) & _REGEX for name in names):
        return None
    return names


def lora_targets(run: Run) -> Iterator[Found]:
    for index in range(len(run.documents)):
        key = next((k for k in TARGET_KEYS if run.leaf(index, k) is not None), None)
        names = _targets(run.leaf(index, key)) if key else None
        model = _model(run, index) if names else None
        if not names or model is None or key is None:
            continue
        try:
            shape = shape_of(model)
        except EvidenceError:
            continue
        if shape.family.startswith("generic"):
            continue
        linear = sorted({part.linear for part in shape.parts if part.linear})
        missing = [name for name in names if name not in linear]
        if missing:
            yield run.problem(
                index,
                key,
                f"{key} {', '.join(missing)} not among the linear layers of "
                f"{model.name} ({model.model_type}): {', '.join(linear)}",
                ", ".join(n for n in names if n in linear) or ", ".join(linear),
            )


def context_length(run: Run) -> Iterator[Found]:
    for index, report in enumerate(run.reports):
        if report.kind != "vllm":
            continue
        length = run.leaf(index, "max_model_len")
        model = _model(run, index)
        if not isinstance(length, int) or model is None:
            continue
        limit = model.values.get("max_position_embeddings")
        scaled = model.values.get("rope_scaling") or run.leaf(index, "rope_scaling")
        if isinstance(limit, int) and length > limit and not scaled:
            yield run.problem(
                index,
                "max_model_len",
                f"max_model_len {length} exceeds {model.name} max_position_embeddings {limit} "
                "and no rope_scaling is set",
                f"max_model_len: {limit}",
            )


def tensor_parallel(run: Run) -> Iterator[Found]:
    """A vLLM tensor_parallel_size the model's attention / KV heads cannot be split by."""
    for index, report in enumerate(run.reports):
        size = run.leaf(index, "tensor_parallel_size")
        model = _model(run, index) if report.kind == "vllm" and isinstance(size, int) else None
        heads = model.first(("num_attention_heads", "n_head"), 0) if model else 0
        if model is None or not isinstance(heads, int) or heads < 1 or size < 1:
            continue
        kv_heads = model.get("num_key_value_heads", heads)
        problem = tensor_parallel_problem(heads, kv_heads, size)
        if problem is not None:
            legal = legal_sizes(heads, kv_heads, max(size, 8))
            yield run.problem(
                index,
                "tensor_parallel_size",
                f"vLLM refuses tensor_parallel_size {size} for {model.name}: {problem} "
                f"({VLLM_HEADS_CHECK_URL})",
                f"tensor_parallel_size: one of {', '.join(map(str, legal))}",
            )
