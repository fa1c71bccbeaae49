"""Per-GPU memory, line by line: weights, gradients, optimizer state, activations.

Every line carries its formula and the origin of each input, so a reader can
check the arithmetic against their own config. Sharding follows the ZeRO paper's
stages (Rajbhandari et al. 2019): stage 1 splits optimizer state over the data-
parallel GPUs, stage 2 also gradients, stage 3 (= FSDP full shard) also weights.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from trainwreck.errors import UsageError
from trainwreck.memory.activations import activations
from trainwreck.memory.architectures import Part, Shape
from trainwreck.model import Arithmetic, ArithmeticLine

GIB = 2**30
DTYPE_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2}
QUANT = ("int8", "nf4", "fp4")
OPTIMIZERS = ("adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "sgd-momentum", "adafactor")
LORA_DEFAULT_TARGETS = ("q_proj", "v_proj")
QLORA_URL = "https://arxiv.org/abs/2305.14314"
ZERO_URL = "https://arxiv.org/abs/1910.02054"
# bitsandbytes keeps the output layer in the compute dtype
_UNQUANTIZED = {"lm_head", "embed_out"}


@dataclass(frozen=True)
class Training:
    """One training setup; `origins` says where each setting came from."""

    batch_size: int = 1
    seq_len: int = 2048
    dtype: str = "bf16"
    quant: str | None = None
    double_quant: bool = True
    optimizer: str = "adamw"
    master_weights: bool | None = None  # None: fp32 master copy only under ZeRO/FSDP
    amp: bool = False  # autocast mixed precision: fp32 weights, activations in `dtype`
    lora_r: int | None = None
    lora_targets: tuple[str, ...] = LORA_DEFAULT_TARGETS
    gpus: int = 1
    zero: int = 0
    offload_optimizer: bool = False
    offload_params: bool = False
    gradient_checkpointing: bool = False
    attention: str = "sdpa"
    context_gib: float = 1.0
    origins: dict[str, str] = field(default_factory=dict, compare=False)

    def source(self, name: str) -> str:
        return self.origins.get(name, f"[assumed] {getattr(self, name)!r} (default)")

    def validate(self) -> None:
        """Impossible settings name the value and why, as a usage error."""
        checks = (
            (self.batch_size >= 1, f"--batch-size {self.batch_size}: must be at least 1"),
            (self.seq_len >= 1, f"--seq-len {self.seq_len}: must be at least 1"),
            (self.gpus >= 1, f"--gpus {self.gpus}: must be at least 1"),
            (self.zero in (0, 1, 2, 3), f"--zero {self.zero}: ZeRO stages are 0-3"),
            (self.dtype in DTYPE_BYTES, f"--dtype {self.dtype}: use one of fp32, bf16, fp16"),
            (self.quant in (None, *QUANT), f"--quant {self.quant}: use int8, nf4 or fp4"),
            (self.optimizer in OPTIMIZERS, f"--optimizer {self.optimizer}: use {OPTIMIZERS}"),
            (self.lora_r is None or self.lora_r >= 1, f"--lora r={self.lora_r}: rank must be >= 1"),
            (
                not self.offload_params or self.zero == 3,
                "--offload-params needs --zero 3 (only stage 3 partitions parameters)",
            ),
            (
                self.quant is None or self.lora_r is not None,
                f"--quant {self.quant}: quantized weights are frozen; add --lora to train",
            ),
        )
        for ok, message in checks:
            if not ok:
                raise UsageError(message)


def line(label: str, formula: str, value: int, source: str, unit: str = "bytes") -> ArithmeticLine:
    """One budget line; amounts are bytes unless `unit` says otherwise."""
    return ArithmeticLine(label=label, formula=formula, value=value, unit=unit, source=source)


def gib(value: int | float) -> str:
    return f"{value / GIB:.2f} GiB"


BINARY_UNITS = (("GiB", GIB), ("MiB", 2**20), ("KiB", 2**10))


def size_text(value: int | float) -> str:
    """Bytes in the largest binary unit the value reaches, so 128 KiB never reads 0.00 GiB."""
    for name, size in BINARY_UNITS:
        if abs(value) >= size:
            return f"{value / size:.2f} {name}"
    return f"{value:,.0f} bytes"


def lora_parts(shape: Shape, run: Training) -> list[Part]:
    """The adapter matrices A (r × in) and B (out × r) for every targeted linear."""
    if run.lora_r is None:
        return []
    adapters = []
    for part in shape.parts:
        if part.linear in run.lora_targets and len(part.shape) == 2:
            fan_out, fan_in = part.shape
            adapters.append(Part(f"{part.name}.lora_A", (run.lora_r, fan_in), part.count))
            adapters.append(Part(f"{part.name}.lora_B", (fan_out, run.lora_r), part.count))
    if not adapters:
        targets = sorted({p.linear for p in shape.parts if p.linear})
        raise UsageError(f"--lora targets {run.lora_targets} match no layer (layers: {targets})")
    return adapters


def weight_dtype(run: Training) -> str:
    """How the weights are stored: fp32 under autocast mixed precision, else `dtype`."""
    return "fp32" if run.amp and run.quant is None else run.dtype


def _quantized(shape: Shape) -> list[Part]:
    """Linear weights bitsandbytes replaces (all but the output layer)."""
    return [
        p
        for p in shape.parts
        if p.linear and p.linear not in _UNQUANTIZED and p.name.endswith("weight")
    ]


def _weights(shape: Shape, run: Training) -> tuple[int, str]:
    stored = weight_dtype(run)
    width = DTYPE_BYTES[stored]
    if run.quant is None:
        return shape.params * width, f"{shape.params:,} params × {width} B ({stored})"
    quantized = sum(p.numel for p in _quantized(shape))
    kept = shape.params - quantized
    if run.quant == "int8":
        rows = sum(p.shape[0] * p.count for p in _quantized(shape))
        packed, note = quantized + rows * 4, f"{quantized:,} × 1 B + {rows:,} row scales × 4 B"
    else:  # 4-bit: one scale per 64-weight block, itself 8-bit per 256 blocks if double-quantized
        scales = quantized // 64
        constants = scales + (scales // 256) * 4 if run.double_quant else scales * 4
        packed = quantized // 2 + constants
        note = f"{quantized:,} × 0.5 B + block constants {constants:,} B"
    return packed + kept * width, f"{note} + {kept:,} unquantized × {width} B"


def _optimizer_bytes_per_param(run: Training, state_width: int, master: bool) -> tuple[float, str]:
    """Optimizer bytes per trainable parameter (Adafactor handled by shape)."""
    master_bytes = 4 if master else 0
    per = {
        "adamw": 2 * (4 if master else state_width),
        "adamw-8bit": 2,
        "paged-adamw-8bit": 2,
        "sgd": 0,
        "sgd-momentum": 4 if master else state_width,
    }[run.optimizer]
    note = f"{per} B states" + (" + 4 B fp32 master copy" if master else "")
    return per + master_bytes, note


def _adafactor_bytes(parts: list[Part]) -> int:
    """Factored second moment: a row and a column vector per matrix, fp32."""
    return sum(
        part.count * (part.shape[0] + part.shape[1]) * 4 if len(part.shape) == 2 else part.numel * 4
        for part in parts
    )


def training_budget(shape: Shape, run: Training, capacity: int | None = None) -> Arithmetic:
    """The per-GPU training budget as labelled arithmetic lines."""
    run.validate()
    adapters = lora_parts(shape, run)
    trainable_parts = adapters or list(shape.parts)
    trainable = sum(part.numel for part in trainable_parts)
    tensors = sum(part.count for part in trainable_parts)
    width = DTYPE_BYTES[weight_dtype(run)]
    train_width = 4 if adapters else width  # PEFT adapters train in fp32
    master = run.master_weights if run.master_weights is not None else run.zero > 0
    master = master and train_width < 4
    shards = run.gpus
    lines = []

    weights, weights_note = _weights(shape, run)
    param_shard = shards if run.zero == 3 else 1
    on_gpu_weights = 0 if run.offload_params else weights // param_shard
    lines.append(
        line(
            "weights",
            weights_note + (f" / {param_shard} GPUs (ZeRO-3)" if param_shard > 1 else ""),
            on_gpu_weights,
            f"config.json sizes; {run.source('dtype')}"
            + (f"; {run.source('amp')}" if run.amp else ""),
        )
    )
    adapter_bytes = trainable * 4 if adapters else 0
    if adapters:
        lines.append(
            line(
                "LoRA adapters",
                f"r={run.lora_r} on {','.join(run.lora_targets)}: {trainable:,} params × 4 B",
                adapter_bytes,
                run.source("lora_r"),
            )
        )
    grad_shard = shards if run.zero >= 2 else 1
    grads = trainable * train_width // grad_shard
    lines.append(
        line(
            "gradients",
            f"{trainable:,} trainable × {train_width} B"
            + (f" / {grad_shard} GPUs (ZeRO-{run.zero})" if grad_shard > 1 else ""),
            grads,
            f"{run.source('zero')}; {run.source('lora_r')}",
        )
    )
    if run.optimizer == "adafactor":
        optimizer, note = _adafactor_bytes(trainable_parts), "factored row+column moments, fp32"
    else:
        per, note = _optimizer_bytes_per_param(run, train_width, master)
        steps = 4 * tensors if run.optimizer == "adamw" else 0  # one fp32 step count per tensor
        optimizer = int(trainable * per) + steps
        note = f"{trainable:,} × ({note})" + (f" + {tensors} step counters × 4 B" if steps else "")
    opt_shard = shards if run.zero >= 1 else 1
    on_gpu_optimizer = 0 if run.offload_optimizer else optimizer // opt_shard
    lines.append(
        line(
            f"optimizer ({run.optimizer})",
            note
            + (f" / {opt_shard} GPUs (ZeRO-{run.zero})" if opt_shard > 1 else "")
            + (" → offloaded to CPU RAM" if run.offload_optimizer else ""),
            on_gpu_optimizer,
            f"{run.source('optimizer')}; [source] {ZERO_URL}",
        )
    )
    act = activations(
        shape,
        run.batch_size,
        run.seq_len,
        DTYPE_BYTES[run.dtype],
        checkpointing=run.gradient_checkpointing,
        eager=run.attention == "eager",
    )
    settings = (
        f"{run.source('batch_size')}; {run.source('seq_len')}; "
        f"{run.source('gradient_checkpointing')}; {run.source('attention')}"
    )
    lines.append(line("activations", act.formula, act.blocks + act.final, settings))
    lines.append(
        line(
            "logits (loss)",
            f"b·s·vocab × 4 B = {run.batch_size}×{run.seq_len}×{shape.vocab:,}×4",
            act.logits,
            f"config.json:vocab_size; {run.source('batch_size')}; {run.source('seq_len')}",
        )
    )
    if act.recompute:
        lines.append(
            line(
                "recomputed block",
                "one block's full activations, rebuilt during its backward",
                act.recompute,
                run.source("gradient_checkpointing"),
            )
        )
    lines.append(
        line(
            "loss temporaries",
            "2 × b·s·vocab × 4 B (fp32 logits and the cross-entropy's working copy)",
            2 * act.logits,
            "measured with torch's MemTracker on transformers 5.24 causal-LM losses",
        )
    )
    context = int(run.context_gib * GIB)
    lines.append(
        line(
            "CUDA context",
            f"{run.context_gib} GiB",
            context,
            f"[assumed] {run.context_gib} GiB for the CUDA context and kernels",
        )
    )
    forward_end = act.total + 2 * act.logits  # zero_grad freed the gradients before forward
    backward = grads + act.recompute + act.blocks  # worst case: every gradient, one block rebuilt
    total = on_gpu_weights + adapter_bytes + on_gpu_optimizer + max(forward_end, backward) + context
    lines.append(
        line(
            "peak per GPU",
            "weights + adapters + optimizer + max(activations + logits + loss temporaries, "
            "gradients + recomputed block + block inputs) + context: the end of the forward "
            "(no gradients yet) or the backward (activations freed as gradients appear), "
            "whichever is larger",
            total,
            "computed",
        )
    )
    return Arithmetic(
        title="Training memory per GPU", lines=tuple(lines), result=_verdict(total, capacity)
    )


def _verdict(total: int, capacity: int | None) -> str:
    if capacity is None:
        return f"{gib(total)} per GPU"
    fits = "fits" if total <= capacity else "does NOT fit"
    return f"{gib(total)} per GPU against {gib(capacity)}: {fits} ({total / capacity:.0%})"


def with_changes(run: Training, **changes: object) -> Training:
    """A copy of the setup with some settings changed (for the fit search)."""
    origins = {**run.origins, **{name: f"proposed {value!r}" for name, value in changes.items()}}
    return replace(run, origins=origins, **changes)  # type: ignore[arg-type]


def total_of(budget: Arithmetic) -> int:
    return int(budget.lines[-1].value)
