"""A micro-batch cut that keeps the effective batch: accumulation raised by the same factor.

Effective batch = micro-batch x gradient_accumulation_steps x world size. Cutting the
micro-batch alone shrinks it (16 → 4 at 4 → 1 with accumulation 4), which changes the
gradient noise and the learning-rate schedule the run was tuned for; an OOM fix must
not change what is trained. So every fix that lowers a micro-batch also carries the
accumulation change that restores the product, from the run's own accumulation.
"""

from __future__ import annotations

from trainwreck.fixes.compare import denoted
from trainwreck.fixes.targets import find_key, normal_name, target
from trainwreck.kb.schema import PatternChange
from trainwreck.model import Change, Evidence

MICRO_BATCH_KEYS = (
    "per_device_train_batch_size",
    "train_micro_batch_size_per_gpu",
    "micro_batch_size",
)
ACCUMULATION_KEY = "gradient_accumulation_steps"
# TrainingArguments, DeepSpeed and axolotl all default to one step per update
# (transformers training_args.py, cited by kb:cuda-oom-capacity)
DEFAULT_ACCUMULATION = 1


def accumulation_of(evidence: Evidence) -> int:
    """The run's gradient_accumulation_steps: the evidence's, else the default."""
    if evidence.setup.grad_accum:
        return evidence.setup.grad_accum
    for config in evidence.configs:
        key = find_key(config.values, target(f"TrainingArguments.{ACCUMULATION_KEY}"))
        value = config.values.get(key) if key else None
        if isinstance(value, int) and value > 0:
            return value
    return DEFAULT_ACCUMULATION


def _accumulation_path(batch_path: str) -> str:
    """The accumulation setting beside a micro-batch one: same owner, same spelling."""
    where = target(batch_path)
    leaf = where.name if where.kind != "key" else where.name.rsplit(".", 1)[-1]
    dashes = leaf[: len(leaf) - len(leaf.lstrip("-"))]
    spelled = ACCUMULATION_KEY.replace("_", "-") if "-" in leaf.lstrip("-") else ACCUMULATION_KEY
    return batch_path[: len(batch_path) - len(leaf)] + dashes + spelled


def accumulation_change(batch: Change, evidence: Evidence) -> PatternChange | None:
    """The accumulation change that keeps the effective batch of a micro-batch cut."""
    if normal_name(target(batch.path).leaf) not in MICRO_BATCH_KEYS:
        return None
    old, new = denoted(batch.before), denoted(batch.after)  # "4" from a log is 4
    if not (isinstance(old, int) and isinstance(new, int) and 0 < new < old):
        return None
    steps = accumulation_of(evidence)
    raised = steps * old // new if old % new == 0 else -(-steps * old // new)
    kept = old % new == 0
    return PatternChange(
        path=_accumulation_path(batch.path),
        before=steps,
        after=raised,
        default=DEFAULT_ACCUMULATION,
        direction="higher",
        reason=(
            f"keeps the effective batch: {old} x {steps} = {new} x {raised}"
            if kept
            else f"effective batch {old} x {steps} → {new} x {raised} (the nearest above)"
        ),
    )
