"""A CUDA OOM explained by the memory budget, when the evidence names the model.

When the run's model config (a config.json beside the logs, or a bundled hub id
in `--model_name_or_path`) and its settings are known, the budget is computed
against the capacity the OOM message printed: which term dominates, and which
changes would fit, each recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping

from trainwreck.analyzers.cuda_oom import oom_capacity
from trainwreck.analyzers.sizes import model_config
from trainwreck.errors import TrainwreckError
from trainwreck.memory.architectures import Shape, shape_of
from trainwreck.memory.budget import GIB, Training, gib, total_of, training_budget, with_changes
from trainwreck.memory.config import ModelConfig
from trainwreck.memory.fit import MARGIN, Candidate, fit_search
from trainwreck.model import Evidence, Finding, Scalar

FINDING_IDS: tuple[str, ...] = ("memory.budget", "memory.over_capacity", "memory.fit")

_TRUE = {True, "true", "True", "1"}


def _config_value(configs: Mapping[str, object], *keys: str) -> object:
    for key in keys:
        if key in configs:
            return configs[key]
    return None


def _sharding(merged: Mapping[str, object], distributed: str | None) -> tuple[int, str] | None:
    """The ZeRO-equivalent stage from DeepSpeed keys or HF/accelerate FSDP settings.

    The origin says which: FSDP keeps fp32 parameters under autocast, DeepSpeed keeps
    16-bit ones with an fp32 master copy."""
    for key in ("zero_optimization.stage", "zero_stage", "deepspeed_config.zero_stage"):
        stage = merged.get(key)
        if isinstance(stage, int) and 0 <= stage <= 3:
            return stage, f"evidence: {key} {stage}"
    fsdp = str(_config_value(merged, "fsdp", "fsdp_sharding_strategy") or "").lower()
    if "shard_grad_op" in fsdp:
        return 2, f"evidence: fsdp {fsdp} (gradients and optimizer sharded, like ZeRO-2)"
    if "full_shard" in fsdp or "hybrid_shard" in fsdp or distributed == "fsdp":
        return 3, f"evidence: FSDP {fsdp or 'sharding'} (everything sharded, like ZeRO-3)"
    return None


def _training(evidence: Evidence, positions: int | None) -> Training:
    """The run's settings as `Training`, each labelled with where it came from."""
    setup = evidence.setup
    merged: dict[str, object] = {}
    for config in evidence.configs:
        merged.update(config.values)
    origins: dict[str, str] = {}
    settings: dict[str, object] = {}
    if setup.batch_size:
        settings["batch_size"] = setup.batch_size
        origins["batch_size"] = f"evidence: micro-batch {setup.batch_size}"
    if setup.seq_len:
        settings["seq_len"] = setup.seq_len
        origins["seq_len"] = f"evidence: sequence length {setup.seq_len}"
    precision = (setup.precision or "").lower()
    if precision in ("bf16", "fp16", "fp32"):
        settings["dtype"] = precision
        origins["dtype"] = f"evidence: {precision}"
    if _config_value(merged, "gradient_checkpointing") in _TRUE:
        settings["gradient_checkpointing"] = True
        origins["gradient_checkpointing"] = "evidence: gradient_checkpointing true"
    finetuning = str(_config_value(merged, "finetuning_type", "peft_type") or "").lower()
    rank = _config_value(merged, "lora_rank", "lora_r", "r")
    if finetuning in ("lora", "qlora") or isinstance(rank, int):
        settings["lora_r"] = rank if isinstance(rank, int) else 8
        origins["lora_r"] = (
            f"evidence: LoRA r={rank}" if isinstance(rank, int) else "[assumed] LoRA r=8"
        )
    sharding = _sharding(merged, setup.distributed)
    if sharding is not None:
        settings["zero"], origins["zero"] = sharding
    if setup.world_size:
        settings["gpus"] = setup.world_size
        origins["gpus"] = f"evidence: world size {setup.world_size}"
    deepspeed = "zero" in origins and "FSDP" not in origins["zero"]
    if "dtype" in settings and "lora_r" not in settings and not deepspeed:
        # Trainer/accelerate --fp16/--bf16 autocast a model whose weights stay fp32
        settings["amp"] = True
        origins["amp"] = f"[assumed] {precision} autocast keeps fp32 weights, grads and states"
    if "seq_len" not in settings and positions is not None and positions < 2048:
        settings["seq_len"] = positions
        origins["seq_len"] = f"[assumed] {positions}, the model's longest context"
    return Training(origins=origins, **settings)  # type: ignore[arg-type]


def _context_length(config: ModelConfig) -> int | None:
    for key in ("max_position_embeddings", "n_positions", "n_ctx"):
        value = config.values.get(key)
        if isinstance(value, int) and value > 0:
            return value
    return None


def analyze(evidence: Evidence) -> list[Finding]:
    """A `memory.budget` finding when an OOM, a model config and a capacity are known."""
    capacity = oom_capacity(evidence)
    if capacity is None:
        return []
    found = model_config(evidence, from_text=False)
    if found is None:
        return []
    config = found[0]

    try:
        shape = shape_of(config)
        run = _training(evidence, _context_length(config))
        budget = training_budget(shape, run, capacity)
    except TrainwreckError:
        return []
    terms = [line for line in budget.lines[:-1] if line.label != "CUDA context"]
    dominant = max(terms, key=lambda line: int(line.value))
    total = total_of(budget)
    searched = fit_search(shape, run, capacity)
    fixes = [fix for fix in searched if fix.fits]
    fits = "; ".join(f"{fix.action} → {gib(fix.total)}" for fix in fixes[:3])
    summary = (
        f"estimated {gib(total)} per GPU against {gib(capacity)}; the largest term is "
        f"{dominant.label} ({gib(int(dominant.value))})"
        + (f". Fits with: {fits}" if fits else ". No single or combined change fits")
    )
    values: dict[str, Scalar] = {
        "estimated_gib": round(total / GIB, 2),
        "capacity_gib": round(capacity / GIB, 2),
        "dominant_term": dominant.label,
        "fitting_change": fixes[0].action if fixes else None,
        "limit_gib": round(capacity * (1 - MARGIN) / GIB, 2),
        **_alone(searched),
    }
    findings = [
        Finding(
            id="memory.budget",
            title="Memory budget for this model and setup",
            category="oom",
            summary=summary,
            values=values,
            arithmetic=budget,
        )
    ]
    if total > capacity:  # the steady-state working set alone does not fit the card
        findings.append(
            Finding(
                id="memory.over_capacity",
                title="The memory budget exceeds the GPU",
                category="oom",
                summary=f"{gib(total)} needed per GPU, {gib(capacity)} available",
                values=values,
            )
        )
    if fixes and total > fixes[0].total:
        findings.append(_fit_finding(shape, run, searched, total, capacity))
    return findings


def _alone(searched: list[Candidate]) -> dict[str, Scalar]:
    """Each single change's own total as `alone.NAME=VALUE` (GiB), so a page's fix
    that is not enough by itself can say so."""
    totals: dict[str, Scalar] = {}
    for single in searched:
        if len(single.ranks) == 1 and len(single.changes) == 1:
            ((name, (_, new)),) = single.changes.items()
            totals[f"alone.{name}={new}"] = round(single.total / GIB, 2)
    return totals


def _sharded_by(origin: str) -> str:
    """Who shards the run, from the origin `_sharding` wrote: fsdp, deepspeed or nobody."""
    if "fsdp" in origin.lower():
        return "fsdp"
    return "deepspeed" if origin else ""


def _fit_finding(
    shape: Shape, run: Training, searched: list[Candidate], total: int, capacity: int
) -> Finding:
    """The least destructive plan that fits (the search's first), with the budget of
    the fixed setting.

    `values` carry each changed setting as `was.NAME` and `set.NAME` so the fix the
    report leads with is written from the same numbers the arithmetic shows."""
    plan = searched[0]
    after = {name: new for name, (_, new) in plan.changes.items()}
    fixed = training_budget(shape, with_changes(run, **after), capacity)
    limit = capacity * (1 - MARGIN)
    verdict = (
        f"{gib(total)} → {gib(plan.total)} per GPU against {gib(capacity)} "
        f"(fits under {gib(limit)}, which keeps {MARGIN:.0%} free)"
    )
    values: dict[str, Scalar] = {
        "action": plan.action,
        "before_gib": round(total / GIB, 2),
        "after_gib": round(plan.total / GIB, 2),
        "capacity_gib": round(capacity / GIB, 2),
        "limit_gib": round(limit / GIB, 2),
        "sharded_by": _sharded_by(run.origins.get("zero", "")),
    }
    for name, (old, new) in plan.changes.items():
        values[f"was.{name}"] = old if isinstance(old, (str, int, float, bool)) else None
        values[f"set.{name}"] = new if isinstance(new, (str, int, float, bool)) else None
    arithmetic = fixed.model_copy(
        update={"title": f"Training memory per GPU with the fix ({plan.action})", "result": verdict}
    )
    return Finding(
        id="memory.fit",
        title="The least destructive change that fits, recomputed",
        category="oom",
        summary=f"{plan.action}: {verdict}",
        values=values,
        arithmetic=arithmetic,
    )
