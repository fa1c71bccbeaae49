"""GPU memory arithmetic from a model's config.json and a run's settings.

`estimate()` returns the per-GPU budget as labelled arithmetic (each line's
formula and the origin of every input), whether it fits the GPU, and, when it
does not, the changes that would, each recomputed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainwreck.errors import UsageError
from trainwreck.memory.architectures import Shape, shape_of
from trainwreck.memory.budget import Training, total_of, training_budget
from trainwreck.memory.config import ModelConfig, load_config
from trainwreck.memory.exact import Measured, measure
from trainwreck.memory.fit import Candidate, fit_search
from trainwreck.memory.gpus import Gpu
from trainwreck.memory.serving import Serving, serving_budget
from trainwreck.model import Arithmetic

__all__ = ["Estimate", "Serving", "Training", "estimate", "load_config", "shape_of"]


@dataclass(frozen=True)
class Estimate:
    """A budget for one model and setup; `fixes` holds recomputed alternatives."""

    model: str
    shape: Shape
    config: ModelConfig
    budget: Arithmetic
    fits: bool | None  # None when no GPU was named
    gpu: Gpu | None = None
    gpus: int = 1
    fixes: list[Candidate] = field(default_factory=list)
    measured: Measured | None = None  # exact mode: a real step on fake tensors


def _value(budget: Arithmetic, label: str) -> int:
    return next(int(line.value) for line in budget.lines if line.label == label)


def estimate(
    model: str,
    run: Training | Serving,
    gpu: Gpu | None = None,
    gpus: int = 1,
    *,
    exact: bool = False,
) -> Estimate:
    """The budget for `model` (a config path, directory or bundled hub id); with
    `exact`, also the peak measured on the real architecture (torch + transformers)."""
    config = load_config(model)
    shape = shape_of(config)
    if isinstance(run, Serving):
        if exact:
            raise UsageError("--exact measures training steps; drop it with --serve")
        if gpu is None:
            raise UsageError("--serve needs --gpus: the KV cache gets what the GPU has left")
        budget = serving_budget(shape, run, gpu.capacity)
        fits = _value(budget, "one sequence at max_model_len") <= _value(budget, "KV cache budget")
        return Estimate(config.name, shape, config, budget, fits, gpu, gpus)
    budget = training_budget(shape, run, gpu.capacity if gpu else None)
    measured = measure(config, run) if exact else None
    if gpu is None:
        return Estimate(config.name, shape, config, budget, None, None, gpus, [], measured)
    fits = total_of(budget) <= gpu.capacity
    fixes = [] if fits else fit_search(shape, run, gpu.capacity)
    return Estimate(config.name, shape, config, budget, fits, gpu, gpus, fixes, measured)
