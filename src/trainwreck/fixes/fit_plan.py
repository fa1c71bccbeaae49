"""The OOM fix a report leads with when its own memory arithmetic found a plan that fits.

The `memory.fit` finding holds the least destructive combination whose recomputed
budget fits the card (`was.NAME` → `set.NAME` per budget setting). This writes it
as the settings a user changes, with the before → after GiB against the capacity
in the action, so the fix and the arithmetic beside it are the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable

from trainwreck.fixes.targets import find_key, is_deepspeed, target
from trainwreck.kb.schema import PatternChange, PatternFix
from trainwreck.model import Evidence, Finding, Fix, Scalar

FIT_FINDING = "memory.fit"
# A page explained by the memory budget weighs one of these findings
BUDGET_FINDING = "memory.budget"
BUDGET_FINDINGS = (BUDGET_FINDING, "memory.over_capacity")
NEW_DEEPSPEED_CONFIG = "ds_config.json"  # the file the ds_config.* settings below go into
# Said when the plan shards or offloads through DeepSpeed in a run that has no DeepSpeed
# config: the fix brings the package in (the form `fixes.named.brought_in` reads).
BRINGS_IN_DEEPSPEED = "ZeRO runs in DeepSpeed (requires deepspeed)."
_SEQUENCE_KEYS = ("cutoff_len", "max_seq_length", "max_length", "sequence_len", "seq_length")

Writer = Callable[[Scalar, Scalar, Evidence], list[PatternChange]]


def _checkpointing(_: Scalar, __: Scalar, ___: Evidence) -> list[PatternChange]:
    return [
        PatternChange(
            path="TrainingArguments.gradient_checkpointing", before=False, after=True, default=False
        )
    ]


def _batch(old: Scalar, new: Scalar, _: Evidence) -> list[PatternChange]:
    """The accumulation change that keeps the effective batch is added with every
    micro-batch cut (fixes.effective_batch)."""
    return [
        PatternChange(
            path="TrainingArguments.per_device_train_batch_size",
            before=old,
            after=new,
            direction="lower",
        )
    ]


def _optimizer(_: Scalar, __: Scalar, ___: Evidence) -> list[PatternChange]:
    return [
        PatternChange(
            path="TrainingArguments.optim",
            before="adamw_torch",
            after="adamw_bnb_8bit",
            default="adamw_torch",
        )
    ]


def _zero(old: Scalar, new: Scalar, _: Evidence) -> list[PatternChange]:
    return [
        PatternChange(path="ds_config.zero_optimization.stage", before=old, after=new, default=0)
    ]


def _offload(_: Scalar, __: Scalar, evidence: Evidence) -> list[PatternChange]:
    """ZeRO-Offload; a run without a DeepSpeed config also needs one named."""
    if any(is_deepspeed(config.values) for config in evidence.configs):
        named = []
    else:
        named = [PatternChange(path="TrainingArguments.deepspeed", after=NEW_DEEPSPEED_CONFIG)]
    device = "ds_config.zero_optimization.offload_optimizer.device"
    return [*named, PatternChange(path=device, before="none", after="cpu")]


def _fsdp_offload(_: Scalar, __: Scalar, evidence: Evidence) -> list[PatternChange]:
    """An FSDP run offloads through its own option (parameters and gradients go too, so
    the recomputed total, which moves only the optimizer state, is an upper bound)."""
    for config in evidence.configs:
        key = find_key(config.values, target("TrainingArguments.fsdp"))
        current = config.values.get(key) if key else None
        clean = isinstance(current, str) and not set("\"'").intersection(current)
        if clean and isinstance(current, str) and "offload" not in current:
            return [
                PatternChange(
                    path="TrainingArguments.fsdp", before=current, after=f"{current} offload"
                )
            ]
    return [PatternChange(path="TrainingArguments.fsdp", after="full_shard auto_wrap offload")]


def _unchanged(_: Scalar, __: Scalar, ___: Evidence) -> list[PatternChange]:
    return []  # FSDP already shards like ZeRO-3; no DeepSpeed stage to set


def _lora(_: Scalar, new: Scalar, __: Evidence) -> list[PatternChange]:
    return [PatternChange(path="LoraConfig.r", after=new, default=8)]


def _quant(_: Scalar, __: Scalar, ___: Evidence) -> list[PatternChange]:
    return [
        PatternChange(
            path="BitsAndBytesConfig.load_in_4bit", before=False, after=True, default=False
        )
    ]


def _sequence(old: Scalar, new: Scalar, evidence: Evidence) -> list[PatternChange]:
    """The run's own sequence-length key (LLaMA-Factory cutoff_len, TRL max_seq_length ...)."""
    for config in evidence.configs:
        for name in _SEQUENCE_KEYS:
            key = find_key(config.values, target(name))
            if key is not None:
                return [PatternChange(path=key, before=old, after=new, direction="lower")]
    return [
        PatternChange(path="SFTConfig.max_seq_length", before=old, after=new, direction="lower")
    ]


# Budget settings (memory.budget.Training fields) → the settings a user changes;
# `amp` follows from moving to DeepSpeed and is not a setting of its own.
_WRITERS: dict[str, Writer] = {
    "gradient_checkpointing": _checkpointing,
    "batch_size": _batch,
    "optimizer": _optimizer,
    "zero": _zero,
    "offload_optimizer": _offload,
    "lora_r": _lora,
    "quant": _quant,
    "seq_len": _sequence,
}


def plan_fix(findings: tuple[Finding, ...], evidence: Evidence) -> PatternFix | None:
    """The fitting plan as a fix recipe, or None when the arithmetic found none."""
    plan = next((f for f in findings if f.id == FIT_FINDING), None)
    if plan is None:
        return None
    values = plan.values
    changes: list[PatternChange] = []
    fsdp = values.get("sharded_by") == "fsdp"
    for name, writer in _WRITERS.items():
        if fsdp and name in ("offload_optimizer", "zero"):
            writer = _fsdp_offload if name == "offload_optimizer" else _unchanged
        if f"set.{name}" in values:
            changes += writer(values.get(f"was.{name}"), values[f"set.{name}"], evidence)
    action = (
        f"Apply the least destructive change that fits by this report's arithmetic: "
        f"{values['action']}. Peak per GPU {values['before_gib']} GiB → {values['after_gib']} GiB "
        f"against {values['capacity_gib']} GiB (limit {values['limit_gib']} GiB)."
    )
    if any(c.path.startswith("ds_config.") for c in changes) and not any(
        is_deepspeed(config.values) for config in evidence.configs
    ):
        action += f" {BRINGS_IN_DEEPSPEED}"
    shorter = "set.seq_len" in values  # trains on different data: truncated samples
    return PatternFix(action=action, changes=tuple(changes), destructive=shorter)


# A page's change → the budget setting and value the fit search tried alone
_ALONE: dict[str, Callable[[object], str | None]] = {
    "gradient_checkpointing": lambda after: f"gradient_checkpointing={after}",
    "per_device_train_batch_size": lambda after: f"batch_size={after}",
    "optim": lambda after: "optimizer=adamw-8bit" if "8bit" in str(after) else None,
}


def alone_note(fix: Fix, findings: tuple[Finding, ...]) -> Fix:
    """The fix, saying so when this report's arithmetic finds it not enough by itself."""
    budget = next((f for f in findings if f.id == BUDGET_FINDING), None)
    mapped = [
        _ALONE[leaf](change.after)
        for change in fix.changes
        if (leaf := target(change.path).leaf) in _ALONE
    ]
    if budget is None or len(mapped) != 1 or mapped[0] is None:
        return fix
    total, limit = budget.values.get(f"alone.{mapped[0]}"), budget.values.get("limit_gib")
    if not isinstance(total, float) or not isinstance(limit, float) or total <= limit:
        return fix
    planned = any(f.id == FIT_FINDING for f in findings)
    note = (
        f" Not enough by itself for this run: {total} GiB per GPU by this report's "
        f"arithmetic, over the {limit} GiB limit"
        + ("; fix 1 combines what fits." if planned else "; no change or combination fits.")
    )
    return fix.model_copy(update={"action": fix.action + note})
