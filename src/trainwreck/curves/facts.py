"""Run facts the detectors need (batch sizes, dataset size, warmup), each with its source.

Steps per epoch = ceil(samples / (micro_batch x grad_accum x world_size)): the
prediction a periodicity is compared with. Unknown factors are not guessed;
grad_accum and world_size default to 1 and are labelled `[assumed]`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from trainwreck.curves.refs import arith
from trainwreck.model import ArithmeticLine, MetricTable


@dataclass(frozen=True)
class Fact:
    value: float
    source: str


@dataclass(frozen=True)
class RunFacts:
    """What the evidence says about the run's size and schedule; absent keys are unknown.

    `method` is how the model is trained (full, lora, qlora, dpo) and where that
    was read, when the evidence says; the learning-rate priors depend on it.
    """

    facts: dict[str, Fact] = field(default_factory=dict)
    method: tuple[str, str] | None = None

    def get(self, key: str) -> Fact | None:
        return self.facts.get(key)


@dataclass(frozen=True)
class StepsPerEpoch:
    value: int
    lines: tuple[ArithmeticLine, ...]
    how: str  # "predicted" (from batch arithmetic) or "observed" (from the epoch column)


def _from_batches(facts: RunFacts) -> StepsPerEpoch | None:
    samples = facts.get("num_examples")
    if samples is None:
        return None
    total = facts.get("total_batch")
    lines = [arith("samples", "dataset size", int(samples.value), samples.source)]
    if total is not None:
        lines.append(
            arith("global batch", "samples per optimizer step", int(total.value), total.source)
        )
        per_step = total.value
        formula = "ceil(samples / global batch)"
    else:
        micro = facts.get("micro_batch")
        if micro is None:
            return None
        accum = facts.get("grad_accum") or Fact(1, "[assumed]")
        world = facts.get("world_size") or Fact(1, "[assumed]")
        lines += [
            arith("micro batch", "per-device batch size", int(micro.value), micro.source),
            arith("grad accumulation", "micro-batches per step", int(accum.value), accum.source),
            arith("world size", "data-parallel ranks", int(world.value), world.source),
        ]
        per_step = micro.value * accum.value * world.value
        formula = "ceil(samples / (micro_batch x grad_accum x world_size))"
    value = math.ceil(samples.value / max(per_step, 1))
    lines.append(arith("steps per epoch", formula, value, "computed", "steps"))
    return StepsPerEpoch(value, tuple(lines), "predicted")


def _from_epoch_column(table: MetricTable) -> StepsPerEpoch | None:
    epoch = table.series.get("epoch")
    if epoch is None or len(epoch) < 3:
        return None
    keep = np.isfinite(epoch.values)
    steps, values = epoch.steps[keep].astype(np.float64), epoch.values[keep]
    if values.size < 3 or values[-1] <= values[0]:
        return None
    if np.all(values == np.round(values)):  # whole epochs (Lightning): where the epoch changes
        changes = steps[1:][np.diff(values) > 0]
        if changes.size < 2:
            return None
        value = round(float(np.median(np.diff(changes))))
    else:
        slope = float(np.polyfit(values, steps, 1)[0])
        value = round(slope)
    line = arith(
        "steps per epoch",
        "steps logged per unit of the epoch column",
        value,
        f"{table.source}:epoch",
        "steps",
    )
    return StepsPerEpoch(value, (line,), "observed") if value > 0 else None


def steps_per_epoch(table: MetricTable, facts: RunFacts) -> StepsPerEpoch | None:
    """Predicted from batch arithmetic when the evidence allows, else read off the epoch column."""
    return _from_batches(facts) or _from_epoch_column(table)
