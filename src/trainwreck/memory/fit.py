"""Which changes make a training setup fit: each candidate recomputed, not guessed.

Every change is tried alone on top of the user's setup, and every combination of
changes (one level per kind: checkpointing, micro-batch, optimizer, sharding or
offload, adapters, sequence length) is recomputed too. The plan a report leads
with is the least destructive combination that fits under the capacity with the
stated margin: first the mildest worst change (same maths before fewer trainable
parameters before shorter sequences), then the fewest changes, then the largest
micro-batch. A micro-batch is only cut to a divisor of the old one, so raising
gradient accumulation by the same factor keeps the effective batch exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from trainwreck.errors import UsageError
from trainwreck.memory.architectures import Shape
from trainwreck.memory.budget import Training, total_of, training_budget, with_changes

MARGIN = 0.10  # keep 10% of the card free for allocator slack and transient peaks

# How much a change alters the run, mildest first: 1 the same maths (recompute,
# accumulate, shard), 2 the same model trained with an approximate or slower
# optimizer (8-bit states, state in CPU RAM), 3 fewer trainable parameters (LoRA),
# 4 a quantized base model, 5 different data (shorter sequences).
SAME_MATHS, OPTIMIZER_STATE, ADAPTERS, QUANTIZED, SHORTER = 1, 2, 3, 4, 5


@dataclass(frozen=True)
class Candidate:
    """One change or combination, its settings before → after, and the recomputed total."""

    action: str
    changes: dict[str, tuple[object, object]]
    total: int
    fits: bool
    ranks: tuple[int, ...] = ()  # how destructive each part is, worst first


@dataclass(frozen=True)
class _Option:
    action: str
    changes: dict[str, object]
    rank: int


def _divisors_below(batch: int) -> list[int]:
    """Smaller micro-batches that divide the old one, largest first."""
    return [size for size in range(batch - 1, 0, -1) if batch % size == 0]


def _batch_axis(run: Training) -> list[_Option]:
    return [
        _Option(
            f"micro-batch {run.batch_size} → {size} with {run.batch_size // size}× "
            f"gradient accumulation (effective batch unchanged)",
            {"batch_size": size},
            SAME_MATHS,
        )
        for size in _divisors_below(run.batch_size)
    ]


def _sharding_axis(run: Training) -> list[_Option]:
    options = []
    if run.gpus > 1 and run.zero < 3:
        options.append(
            _Option(
                f"shard weights, gradients and optimizer over {run.gpus} GPUs "
                "(ZeRO-3 / FSDP full shard)",
                {"zero": 3},
                SAME_MATHS,
            )
        )
    if not run.offload_optimizer:
        # DeepSpeed keeps 16-bit weights and gradients with an fp32 master copy in the
        # optimizer (no autocast), and ZeRO-Offload needs stage 1 or more
        stage = run.zero or 2
        options.append(
            _Option(
                "offload optimizer state to CPU RAM"
                + ("" if run.zero else " (DeepSpeed ZeRO-2 with offload_optimizer)"),
                {"offload_optimizer": True, "zero": stage, "amp": False},
                OPTIMIZER_STATE,
            )
        )
    return options


def _axes(run: Training) -> list[list[_Option]]:
    """Each kind of change with its levels; a plan takes at most one level of each."""
    axes = [
        [
            _Option(
                "recompute activations (gradient checkpointing)",
                {"gradient_checkpointing": True},
                SAME_MATHS,
            )
        ]
        if not run.gradient_checkpointing
        else [],
        _batch_axis(run),
        [_Option("8-bit AdamW (bitsandbytes)", {"optimizer": "adamw-8bit"}, OPTIMIZER_STATE)]
        if run.optimizer == "adamw"
        else [],
        _sharding_axis(run),
        [
            _Option("train LoRA adapters (r=16) instead of all weights", {"lora_r": 16}, ADAPTERS),
            _Option(
                "QLoRA: 4-bit NF4 base weights with r=16 adapters",
                {"lora_r": 16, "quant": "nf4"},
                QUANTIZED,
            ),
        ]
        if run.lora_r is None
        else [],
        [
            _Option(
                f"shorter sequences ({run.seq_len} → {run.seq_len // 2})",
                {"seq_len": run.seq_len // 2},
                SHORTER,
            )
        ]
        if run.seq_len > 512
        else [],
    ]
    return [axis for axis in axes if axis]


def _plan_key(candidate: Candidate) -> tuple[tuple[int, ...], int, int]:
    """Mildest worst change first, then fewer changes, then the larger micro-batch."""
    batch = candidate.changes.get("batch_size", (None, None))[1]
    kept = batch if isinstance(batch, int) else 1_000_000  # no cut: the batch as it was
    return candidate.ranks, -kept, candidate.total


def fit_search(shape: Shape, run: Training, capacity: int) -> list[Candidate]:
    """The least destructive fitting plan first (a single change or a combination),
    then every single change, fitting ones first, each recomputed."""
    limit = capacity * (1 - MARGIN)
    axes = _axes(run)
    singles = [_candidate(shape, run, [option], limit) for axis in axes for option in axis]
    plans = []
    for levels in product(*[[None, *axis] for axis in axes]):
        chosen = [option for option in levels if option is not None]
        if len(chosen) > 1:
            plans.append(_candidate(shape, run, chosen, limit))
    fitting = [c for c in [*singles, *plans] if c is not None and c.fits]
    best = min(fitting, key=_plan_key, default=None)
    found = [c for c in singles if c is not None]
    if best is not None and best not in found:
        found.insert(0, best)
    return sorted(found, key=lambda c: (c is not best, not c.fits))


def _candidate(
    shape: Shape, run: Training, options: list[_Option], limit: float
) -> Candidate | None:
    changes: dict[str, object] = {}
    for option in options:
        changes.update(option.changes)
    changes = {name: value for name, value in changes.items() if getattr(run, name) != value}
    try:
        total = total_of(training_budget(shape, with_changes(run, **changes)))
    except UsageError:
        return None  # a change this setup cannot take (e.g. LoRA targets absent)
    action = " + ".join(option.action for option in options)
    if len(options) > 1:
        action = "combined: " + action
    before_after = {name: (getattr(run, name), value) for name, value in changes.items()}
    ranks = tuple(sorted((option.rank for option in options), reverse=True))
    return Candidate(action, before_after, total, total <= limit, ranks)
