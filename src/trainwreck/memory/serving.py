"""Inference memory: the KV cache, and what a vLLM engine has left for it.

KV cache per token = 2 (K and V) × layers × num_key_value_heads × head_dim ×
bytes; grouped-query models store only their KV heads, never all attention
heads. vLLM sizes its cache as gpu_memory_utilization × capacity minus the
weights and the activation peak it profiles at start-up
(https://docs.vllm.ai/en/v0.8.1/serving/engine_args.html).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainwreck.errors import UsageError
from trainwreck.memory.architectures import Shape
from trainwreck.memory.budget import DTYPE_BYTES, GIB, gib, line
from trainwreck.memory.tensor_parallel import (
    VLLM_HEADS_CHECK_URL,
    kv_heads_per_gpu,
    legal_sizes,
    tensor_parallel_problem,
)
from trainwreck.model import Arithmetic

VLLM_ARGS_URL = "https://docs.vllm.ai/en/v0.8.1/serving/engine_args.html"


def kv_bytes_per_token(shape: Shape, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> int:
    """Bytes of K and V one token occupies across all layers, on one GPU."""
    layers = shape.layers + shape.decoder_layers
    kv_heads = kv_heads_per_gpu(shape.kv_heads, tensor_parallel)
    return 2 * layers * kv_heads * shape.head_dim * DTYPE_BYTES[kv_dtype]


def _kv_formula(shape: Shape, run: Serving) -> str:
    layers, tp = shape.layers + shape.decoder_layers, run.tensor_parallel
    per_gpu = kv_heads_per_gpu(shape.kv_heads, tp)
    heads = (
        f"{shape.kv_heads} KV heads"
        if per_gpu * tp == shape.kv_heads
        else f"1 KV head ({shape.kv_heads} KV heads replicated over TP {tp})"
    )
    tail = f" / TP {tp}" if per_gpu * tp == shape.kv_heads else ""
    width = DTYPE_BYTES[run.kv_dtype]
    return f"2 × {layers} layers × {heads} × {shape.head_dim} head_dim × {width} B{tail}"


def check_tensor_parallel(shape: Shape, tensor_parallel: int) -> None:
    """Refuse a TP size vLLM would refuse, naming the sizes it accepts."""
    problem = tensor_parallel_problem(shape.heads, shape.kv_heads, tensor_parallel)
    if problem is not None:
        legal = ", ".join(map(str, legal_sizes(shape.heads, shape.kv_heads, shape.heads)))
        raise UsageError(
            f"--tensor-parallel {tensor_parallel}: vLLM refuses it: {problem} "
            f"(sizes it accepts: {legal}; {VLLM_HEADS_CHECK_URL})"
        )


@dataclass(frozen=True)
class Serving:
    """A vLLM-style engine setup; `origins` says where each setting came from."""

    max_model_len: int = 4096
    gpu_memory_utilization: float = 0.9
    dtype: str = "bf16"
    kv_dtype: str = "bf16"
    tensor_parallel: int = 1
    activation_gib: float = 2.0
    origins: dict[str, str] = field(default_factory=dict, compare=False)

    def source(self, name: str) -> str:
        return self.origins.get(name, f"[assumed] {getattr(self, name)!r} (default)")

    def validate(self) -> None:
        if not 0 < self.gpu_memory_utilization <= 1:
            raise UsageError(
                f"--gpu-memory-utilization {self.gpu_memory_utilization}: must be in (0, 1]"
            )
        if self.max_model_len < 1:
            raise UsageError(f"--max-model-len {self.max_model_len}: must be at least 1")
        if self.tensor_parallel < 1:
            raise UsageError(f"--tensor-parallel {self.tensor_parallel}: must be at least 1")


def serving_budget(shape: Shape, run: Serving, capacity: int) -> Arithmetic:
    """Weights, KV budget and the tokens / max_model_len it holds, per GPU."""
    run.validate()
    check_tensor_parallel(shape, run.tensor_parallel)
    tp = run.tensor_parallel
    per_token = kv_bytes_per_token(shape, run.kv_dtype, tp)
    weights = shape.params * DTYPE_BYTES[run.dtype] // tp
    usable = int(run.gpu_memory_utilization * capacity)
    peak = int(run.activation_gib * GIB)
    kv_budget = usable - weights - peak
    per_sequence = per_token * run.max_model_len
    lines = [
        line(
            "usable memory",
            f"{run.gpu_memory_utilization} × {gib(capacity)}",
            usable,
            f"{run.source('gpu_memory_utilization')}; [source] {VLLM_ARGS_URL}",
        ),
        line(
            "weights",
            f"{shape.params:,} params × {DTYPE_BYTES[run.dtype]} B / TP {tp}",
            weights,
            f"config.json sizes; {run.source('dtype')}",
        ),
        line(
            "activation peak",
            f"{run.activation_gib} GiB",
            peak,
            f"[assumed] {run.activation_gib} GiB profiled peak; vLLM logs the real one",
        ),
        line("KV cache budget", "usable − weights − activation peak", kv_budget, "computed"),
        line(
            "KV per token",
            _kv_formula(shape, run),
            per_token,
            "config.json:num_hidden_layers, num_key_value_heads, head_dim",
        ),
        line(
            "tokens the cache holds",
            "KV cache budget / KV per token",
            max(kv_budget, 0) // per_token,
            "computed",
            "tokens",
        ),
        line(
            "one sequence at max_model_len",
            f"{run.max_model_len:,} tokens × KV per token",
            per_sequence,
            run.source("max_model_len"),
        ),
    ]
    if kv_budget <= 0:
        result = f"the weights and activation peak ({gib(weights + peak)}) leave no KV cache"
    elif per_sequence > kv_budget:
        fit = kv_budget // per_token
        result = (
            f"max_model_len {run.max_model_len:,} needs {gib(per_sequence)} of KV cache but only "
            f"{gib(kv_budget)} is left: at most {fit:,} tokens fit"
        )
    else:
        result = (
            f"KV cache {gib(kv_budget)} holds {kv_budget // per_sequence:,} sequences of "
            f"{run.max_model_len:,} tokens at once"
        )
    return Arithmetic(title="Serving memory per GPU", lines=tuple(lines), result=result)
