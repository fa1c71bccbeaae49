"""Which changes make a training setup fit: each candidate recomputed, not guessed.

Candidates are tried one at a time on top of the user's setup, least destructive
first (same maths and model, then less memory per step, then fewer trainable
parameters, then a different problem: a shorter sequence). Only those whose
recomputed total fits under the capacity with the stated margin are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainwreck.errors import UsageError
from trainwreck.memory.architectures import Shape
from trainwreck.memory.budget import Training, total_of, training_budget, with_changes

MARGIN = 0.10  # keep 10% of the card free for allocator slack and transient peaks


@dataclass(frozen=True)
class Candidate:
    """One change, its settings before → after, and the recomputed total."""

    action: str
    changes: dict[str, tuple[object, object]]
    total: int
    fits: bool


def _options(run: Training) -> list[tuple[str, dict[str, object]]]:
    options: list[tuple[str, dict[str, object]]] = []
    if not run.gradient_checkpointing:
        options.append(
            ("recompute activations (gradient checkpointing)", {"gradient_checkpointing": True})
        )
    if run.batch_size > 1:
        smaller = max(1, run.batch_size // 2)
        options.append(
            (
                f"halve the micro-batch and double gradient accumulation "
                f"(effective batch unchanged: {run.batch_size} = {smaller} × 2)",
                {"batch_size": smaller},
            )
        )
        if smaller > 1:
            options.append(
                (
                    f"micro-batch 1 with {run.batch_size}× gradient accumulation",
                    {"batch_size": 1},
                )
            )
    if run.optimizer == "adamw":
        options.append(("8-bit AdamW (bitsandbytes)", {"optimizer": "adamw-8bit"}))
    if run.gpus > 1 and run.zero < 3:
        options.append(
            (
                f"shard weights, gradients and optimizer over {run.gpus} GPUs "
                "(ZeRO-3 / FSDP full shard)",
                {"zero": 3},
            )
        )
    if not run.offload_optimizer and run.zero >= 1:
        options.append(("offload optimizer state to CPU RAM", {"offload_optimizer": True}))
    if run.lora_r is None:
        options.append(("train LoRA adapters (r=16) instead of all weights", {"lora_r": 16}))
        options.append(
            ("QLoRA: 4-bit NF4 base weights with r=16 adapters", {"lora_r": 16, "quant": "nf4"})
        )
    if run.seq_len > 512:
        options.append(
            (
                f"shorter sequences ({run.seq_len} → {run.seq_len // 2})",
                {"seq_len": run.seq_len // 2},
            )
        )
    return options


def fit_search(shape: Shape, run: Training, capacity: int) -> list[Candidate]:
    """Every single change, recomputed; when none fits alone, the changes combined in
    order until the total fits. Fitting candidates first."""
    limit = capacity * (1 - MARGIN)
    found = []
    combined: dict[str, object] = {}
    for action, changes in _options(run):
        single = _candidate(shape, run, action, changes, limit)
        if single is not None:
            found.append(single)
        if any(c.fits for c in found) or single is None:
            continue
        combined.update(changes)
        if len(combined) > len(changes):
            steps = _candidate(shape, run, "combined: " + " + ".join(combined), combined, limit)
            if steps is not None and steps.fits:
                found.append(steps)
    return sorted(found, key=lambda c: not c.fits)


def _candidate(
    shape: Shape, run: Training, action: str, changes: dict[str, object], limit: float
) -> Candidate | None:
    try:
        total = total_of(training_budget(shape, with_changes(run, **changes)))
    except UsageError:
        return None  # a change this setup cannot take (e.g. LoRA targets absent)
    before_after = {name: (getattr(run, name), value) for name, value in changes.items()}
    return Candidate(action, before_after, total, total <= limit)
