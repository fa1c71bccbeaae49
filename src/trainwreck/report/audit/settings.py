"""Which setting a change's key is, by its leaf name, across the frameworks' spellings.

The auditor compares a fix with the report's arithmetic, so it needs to know that
`per_device_train_batch_size`, `train_micro_batch_size_per_gpu` and `--batch-size`
are all the micro-batch, and which terms of the memory fit search each key moves.
"""

from __future__ import annotations

import re

MICRO_BATCH = re.compile(
    r"^(?:per_device_train_batch_size|train_micro_batch_size_per_gpu|micro_batch_size|"
    r"batch_size|train_batch_size_per_device|per_gpu_train_batch_size)$"
)
ACCUMULATION = re.compile(
    r"^(?:gradient_accumulation_steps|accumulate_grad_batches|grad_accum\w*)$"
)
# A duration, not a switch that acts on a timeout (`TORCH_NCCL_DUMP_ON_TIMEOUT`).
TIMEOUT = re.compile(r"(?<!on_)timeout(?:_(?:s|sec|seconds|ms))?$")
# Step counts a schedule or a run is set by; the run's length is their goal.
SCHEDULE_LENGTH = re.compile(
    r"^(?:max_steps|num_training_steps|total_steps|t_max|total_iters|num_train_steps)$"
)
# The terms of `memory.fit` (its Training fields) and the keys that move each one.
FIT_TERMS: dict[str, re.Pattern[str]] = {
    "gradient_checkpointing": re.compile(r"gradient_checkpointing$|activation_checkpoint"),
    "batch_size": MICRO_BATCH,
    "optimizer": re.compile(r"^optim(?:izer)?(?:\.type)?$"),
    "zero": re.compile(r"^stage$|zero_stage|fsdp"),
    "offload_optimizer": re.compile(r"offload"),
    "lora_r": re.compile(r"lora|finetuning_type|^r$"),
    "quant": re.compile(r"load_in_4bit|quant"),
    "seq_len": re.compile(r"max_length|cutoff_len|seq_len|max_seq_length|max_source_length"),
}
# How `memory.fit` words each single change (its combined changes name the terms).
FIT_ACTIONS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"gradient checkpointing"), ("gradient_checkpointing",)),
    (re.compile(r"micro-batch"), ("batch_size",)),
    (re.compile(r"8-bit AdamW"), ("optimizer",)),
    (re.compile(r"ZeRO-3|FSDP full shard"), ("zero",)),
    (re.compile(r"offload optimizer"), ("offload_optimizer",)),
    (re.compile(r"^QLoRA"), ("lora_r", "quant")),
    (re.compile(r"^train LoRA"), ("lora_r",)),
    (re.compile(r"shorter sequences"), ("seq_len",)),
)


def fit_terms(action: str) -> tuple[str, ...]:
    """The memory terms a fit-search action changes: `combined: a + b` joins the single
    changes' own wordings (`memory.fit`), so each part is read as a single change."""
    if action.startswith("combined:"):
        parts = action.removeprefix("combined:").split(" + ")
        return tuple(term for part in parts for term in fit_terms(part.strip()))
    return next((terms for pattern, terms in FIT_ACTIONS if pattern.search(action)), ())


def term_of(path: str) -> str | None:
    """The memory term a key moves, or None: by its leaf, else by the section it sits in
    (`zero_optimization.offload_optimizer.device` moves the optimizer offload)."""
    parts = path.lower().split(".")
    return next(
        (
            term
            for part in reversed(parts)
            for term, pattern in FIT_TERMS.items()
            if pattern.search(part)
        ),
        None,
    )
