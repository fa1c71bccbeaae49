"""Exact mode: build the real architecture without weights and measure a training step.

Under `FakeTensorMode` tensors carry shapes and dtypes but no storage, so the
transformers implementation of the user's model runs two AdamW steps on the CPU
in seconds whatever its size, while torch's `MemTracker` attributes every byte
(parameters, gradients, optimizer state, activations, temporaries) at the peak.
Needs torch and transformers; the closed-form budget needs neither.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Any

from trainwreck.errors import UsageError
from trainwreck.memory.budget import Training
from trainwreck.memory.config import ModelConfig

_DTYPES = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}
STEPS = 2  # the second step runs with optimizer state already allocated


@dataclass(frozen=True)
class Measured:
    """Bytes per category at the measured peak, as MemTracker reports them."""

    categories: dict[str, int]

    @property
    def peak(self) -> int:
        return self.categories["Total"]


def _require(run: Training) -> None:
    missing = [name for name in ("torch", "transformers") if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(
            f"--exact needs {' and '.join(missing)} installed (pip install torch transformers)"
        )
    unsupported = [
        label
        for label, present in (
            ("--lora", run.lora_r is not None),
            ("--quant", run.quant is not None),
            ("--zero", run.zero > 0),
            ("--offload-*", run.offload_optimizer or run.offload_params),
            (f"--optimizer {run.optimizer}", run.optimizer not in ("adamw", "sgd", "sgd-momentum")),
        )
        if present
    ]
    if unsupported:
        raise UsageError(
            f"--exact measures a single-GPU full fine-tune; drop {', '.join(unsupported)}"
        )


def measure(config: ModelConfig, run: Training) -> Measured:
    """Peak memory of a real training step of this architecture, measured on fake tensors."""
    _require(run)
    import torch
    import transformers
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.distributed._tools.mem_tracker import MemTracker

    values = {k: v for k, v in config.values.items() if not str(k).startswith("_")}
    model_type = values.pop("model_type", config.model_type)
    hf_config = transformers.AutoConfig.for_model(model_type, **values)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, _DTYPES[run.dtype]))
    try:
        with FakeTensorMode():
            model = _build(transformers, hf_config, model_type)
            if run.gradient_checkpointing:
                model.gradient_checkpointing_enable()
            model.train()
            optimizer = _optimizer(torch, model, run)
            tracker = MemTracker()
            tracker.track_external(model, optimizer)
            with tracker:
                for _ in range(STEPS):
                    ids = torch.randint(0, hf_config.vocab_size, (run.batch_size, run.seq_len))
                    model(input_ids=ids, labels=ids).loss.backward()
                    optimizer.step()
                    optimizer.zero_grad()
                    tracker.reset_mod_stats()  # per-module stats cover one iteration
            snapshot = tracker.get_tracker_snapshot("peak")
    finally:
        torch.set_default_dtype(previous)
    (device_stats,) = snapshot.values()
    return Measured({getattr(k, "value", str(k)): int(v) for k, v in device_stats.items()})


def _build(transformers: Any, hf_config: Any, model_type: str) -> Any:
    if model_type in ("bert", "roberta"):
        raise UsageError(
            "--exact runs causal-LM training steps; encoder-only models are not supported"
        )
    if model_type == "t5":
        return transformers.T5ForConditionalGeneration(hf_config)
    return transformers.AutoModelForCausalLM.from_config(hf_config)


def _optimizer(torch: Any, model: Any, run: Training) -> Any:
    if run.optimizer == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=1e-5)
    momentum = 0.9 if run.optimizer == "sgd-momentum" else 0.0
    return torch.optim.SGD(model.parameters(), lr=1e-3, momentum=momentum)
