"""Model FLOPs utilisation: the share of the GPU's peak that the run turns into model work.

MFU says a run is slow, not why; it is the number a slow-throughput report starts from.
The achieved FLOP/s per GPU are either printed by the framework (Megatron's TFLOP/s per
GPU) or computed from the tokens/s the log prints times the FLOPs one token costs in
training: 6 per parameter (the forward and backward matmuls) plus 12 x layers x attention
width x sequence length (attention's score and value products), the PaLM paper's
appendix B formula as nanoGPT's `estimate_mfu` computes it. The peak is the GPU table's
dense figure at the run's precision.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from trainwreck.analyzers.sizes import model_config
from trainwreck.errors import TrainwreckError
from trainwreck.memory.architectures import Shape, shape_of
from trainwreck.memory.config import ModelConfig
from trainwreck.memory.gpus import Gpu, resolve_gpu
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, LogLine, SourceRef

FINDING_IDS: tuple[str, ...] = ("throughput.mfu",)

# nanoGPT's estimate_mfu (PaLM paper appendix B, arXiv 2204.02311): a trained token costs
# 6 FLOPs per parameter and 12 x L x H x Q x T in attention (H x Q, heads x head width).
FORMULA_SOURCE = (
    "https://github.com/karpathy/nanoGPT/blob/3adf61e154c3fe3fca428ad6bc3818b27a3b8291/"
    "model.py#L289-L303"
)
FLOPS_PER_PARAMETER = 6
ATTENTION_FLOPS = 12
# Megatron-LM's README reports end-to-end MFU on H100 of 41% for its smallest (2B) model up
# to 47-48% for the largest (weak scaling), and 47% falling to 42% at 4608 GPUs (strong).
PUBLISHED_SOURCE = (
    "https://github.com/NVIDIA/Megatron-LM/blob/0010ab7484337a1089ad9c35a0ce8723ed6b4740/"
    "README.md#training-speed-and-scalability"
)
PUBLISHED_MFU = 0.41
# Our judgement, not a published line: a run below half the lowest MFU that tuned large-model
# training reports has lost most of its throughput to something other than model size.
LOW_MFU = PUBLISHED_MFU / 2
# transformers v5.24.0 gathers every process's input tokens before counting them (L2748) and
# counts samples over the total batch of all processes (L2539), so both rates cover all GPUs.
HF_RATES_SOURCE = (
    "https://github.com/huggingface/transformers/blob/v5.24.0/src/transformers/trainer.py#L2748"
)

_NUMBER = r"(\d+(?:\.\d+)?(?:e[+-]?\d+)?)"
_MEGATRON = re.compile(rf"throughput per GPU \(TFLOP/s/GPU\): {_NUMBER}")
_HF_TOKENS = re.compile(rf"'train_tokens_per_second': '?{_NUMBER}")
_HF_SAMPLES = re.compile(rf"'train_samples_per_second': '?{_NUMBER}")
KEEP: tuple[str, ...] = (
    r"throughput per GPU \(TFLOP/s/GPU\): \d",
    r"'train_(?:tokens|samples)_per_second': '?\d",
)
# "16 x H100", "4xA100-80GB", "an H100", "RTX 4090": a count (optional) and a GPU's name.
_NAMED_GPU = re.compile(
    r"(?i)(?:\b(\d+)\s*[x\u00d7*]\s*)?\b((?:rtx[- ]?\d{4}|[a-z]{1,2}\d{1,4})[\w-]*)"
)
_PRECISIONS = {"bf16", "fp16", "tf32", "fp32"}


@dataclass(frozen=True)
class _Rate:
    """A throughput the log prints: TFLOP/s per GPU, or tokens/s or samples/s of all GPUs."""

    kind: Literal["tflops", "tokens", "samples"]
    value: float
    line: LogLine
    how: str


@dataclass(frozen=True)
class _Known:
    """A value the arithmetic uses, with where it came from."""

    value: int
    source: str


def _rate(lines: Iterable[LogLine]) -> _Rate | None:
    """Megatron's TFLOP/s per GPU (median over its lines), else the Trainer's last rate."""
    megatron: list[tuple[float, LogLine]] = []
    tokens: _Rate | None = None
    samples: _Rate | None = None
    for line in lines:
        if found := _MEGATRON.search(line.text):
            megatron.append((float(found.group(1)), line))
        elif found := _HF_TOKENS.search(line.text):
            tokens = _Rate("tokens", float(found.group(1)), line, "train_tokens_per_second")
        elif found := _HF_SAMPLES.search(line.text):
            samples = _Rate("samples", float(found.group(1)), line, "train_samples_per_second")
    if megatron:
        median = statistics.median(value for value, _ in megatron)
        line = min(megatron, key=lambda pair: abs(pair[0] - median))[1]
        how = f"median of {len(megatron)} 'throughput per GPU (TFLOP/s/GPU)' lines"
        return _Rate("tflops", median, line, how)
    return tokens or samples


def _named_gpu(text: str) -> tuple[Gpu, int | None, str] | None:
    """The first GPU the user's words name, with a count written before it."""
    for found in _NAMED_GPU.finditer(text):
        gpu = resolve_gpu(found.group(2))
        if gpu is not None:
            count = int(found.group(1)) if found.group(1) else None
            return gpu, count, found.group(0).strip()
    return None


def _gpu(evidence: Evidence) -> tuple[Gpu, str] | None:
    """The run's GPU: the name its logs print, else the one the user's words name."""
    setup = evidence.setup
    if setup.gpu_name and (gpu := resolve_gpu(setup.gpu_name)) is not None:
        return gpu, f"evidence: GPU {setup.gpu_name!r}"
    named = _named_gpu(evidence.symptoms or "")
    if named is None:
        return None
    return named[0], f"symptoms: {named[2]!r}"


def _gpus(evidence: Evidence) -> _Known:
    """How many GPUs share a rate that covers all of them."""
    setup = evidence.setup
    if setup.world_size:
        return _Known(setup.world_size, f"evidence: world size {setup.world_size}")
    if setup.gpu_count:
        return _Known(setup.gpu_count, f"evidence: {setup.gpu_count} GPUs listed")
    named = _named_gpu(evidence.symptoms or "")
    if named is not None and named[1]:
        return _Known(named[1], f"symptoms: {named[2]!r}")
    return _Known(1, "[assumed] one GPU (more would lower the MFU)")


def _precision(evidence: Evidence) -> tuple[str, str]:
    """The dtype whose peak applies; bf16 assumed, and labelled so, when the evidence does not
    say (an fp32 run would then read lower than it is)."""
    precision = (evidence.setup.precision or "").lower()
    if precision in _PRECISIONS:
        return precision, f"evidence: {precision}"
    return "bf16", "[assumed] bf16: the evidence names no precision"


def _sequence(evidence: Evidence, config: ModelConfig) -> _Known | None:
    """The run's sequence length, else the model's longest context (which overstates the
    attention FLOPs, so the MFU leans high)."""
    if evidence.setup.seq_len:
        return _Known(evidence.setup.seq_len, f"evidence: sequence length {evidence.setup.seq_len}")
    for key in ("max_position_embeddings", "n_positions", "n_ctx"):
        value = config.values.get(key)
        if isinstance(value, int) and value > 0:
            return _Known(value, f"[assumed] the model's longest context ({key})")
    return None


def _token_flops(evidence: Evidence) -> tuple[int, _Known, list[ArithmeticLine]] | None:
    """FLOPs per trained token and the sequence length, with their lines; None without a
    dense model's config (a mixture of experts runs only part of its parameters per token)."""
    found = model_config(evidence)
    if found is None:
        return None
    config, origin = found
    try:
        shape: Shape = shape_of(config)
    except TrainwreckError:
        return None
    sequence = _sequence(evidence, config)
    if shape.experts or sequence is None:
        return None
    layers = shape.layers + shape.decoder_layers
    width = shape.heads * shape.head_dim
    flops = FLOPS_PER_PARAMETER * shape.params + ATTENTION_FLOPS * layers * width * sequence.value
    lines = [
        ArithmeticLine(
            label="parameters N",
            formula=f"sum of the {shape.family} parameter tensors",
            value=shape.params,
            source=origin,
        ),
        ArithmeticLine(label="layers L", formula="from the config", value=layers, source=origin),
        ArithmeticLine(
            label="attention width H x Q",
            formula=f"{shape.heads} heads x {shape.head_dim}",
            value=width,
            source=origin,
        ),
        ArithmeticLine(
            label="sequence length T",
            formula="tokens per sample",
            value=sequence.value,
            source=sequence.source,
        ),
        ArithmeticLine(
            label="FLOPs per trained token",
            formula=f"{FLOPS_PER_PARAMETER} x N + {ATTENTION_FLOPS} x L x (H x Q) x T",
            value=flops,
            source=FORMULA_SOURCE,
        ),
    ]
    return flops, sequence, lines


def _achieved(evidence: Evidence, rate: _Rate) -> tuple[float, list[ArithmeticLine]] | None:
    """Achieved TFLOP/s per GPU and the lines that compute it."""
    where = f"{rate.line.source}:{rate.line.line}"
    printed = ArithmeticLine(
        label={"tflops": "TFLOP/s per GPU", "tokens": "tokens/s", "samples": "samples/s"}[
            rate.kind
        ],
        formula=rate.how,
        value=rate.value,
        source=where,
    )
    if rate.kind == "tflops":
        return rate.value, [printed]
    per_token = _token_flops(evidence)
    if per_token is None:
        return None
    flops, sequence, lines = per_token
    gpus = _gpus(evidence)
    tokens = rate.value * (sequence.value if rate.kind == "samples" else 1)
    lines.append(printed.model_copy(update={"label": f"{printed.label}, all GPUs"}))
    if rate.kind == "samples":
        lines.append(
            ArithmeticLine(
                label="tokens/s, all GPUs",
                formula=f"{rate.value:g} samples/s x T {sequence.value}",
                value=round(tokens, 1),
                source="computed (every sample counted at the full sequence length)",
            )
        )
    achieved = tokens / gpus.value * flops / 1e12
    lines += [
        ArithmeticLine(
            label="GPUs", formula="the rate is shared by", value=gpus.value, source=gpus.source
        ),
        ArithmeticLine(
            label="achieved per GPU",
            formula=f"{tokens:g} / {gpus.value} x {flops:,} FLOPs",
            value=round(achieved, 3),
            unit="TFLOP/s",
            source=f"computed; the Trainer's rates cover all GPUs ({HF_RATES_SOURCE})",
        ),
    ]
    return achieved, lines


def analyze(evidence: Evidence) -> list[Finding]:
    """A `throughput.mfu` finding when the run's MFU is below LOW_MFU."""
    rate = _rate(evidence.lines)
    gpu = _gpu(evidence) if rate is not None else None
    if rate is None or gpu is None:
        return []
    dtype, dtype_source = _precision(evidence)
    peak = gpu[0].peak_tflops(dtype)
    computed = _achieved(evidence, rate)
    if computed is None or not peak:
        return []
    achieved, lines = computed
    mfu = achieved / peak
    if mfu >= LOW_MFU:
        return []
    summary = (
        f"MFU {100 * mfu:.3g}%: {achieved:.3g} TFLOP/s per GPU of the {gpu[0].name}'s {peak:g} "
        f"dense {dtype} TFLOP/s, under the {LOW_MFU:.1%} line (half the {PUBLISHED_MFU:.0%} "
        "tuned large-model training reaches)"
    )
    lines += [
        ArithmeticLine(
            label=f"peak {dtype} TFLOP/s ({gpu[0].name}, dense)",
            formula=f"precision {dtype_source}; GPU {gpu[1]}",
            value=peak,
            unit="TFLOP/s",
            source=gpu[0].source,
        ),
        ArithmeticLine(
            label="MFU",
            formula=f"{achieved:.3g} / {peak:g}",
            value=round(mfu, 5),
            source="computed",
        ),
        ArithmeticLine(
            label="low-MFU line",
            formula=f"{PUBLISHED_MFU:.0%} / 2",
            value=round(LOW_MFU, 4),
            source=PUBLISHED_SOURCE,
        ),
    ]
    return [
        Finding(
            id="throughput.mfu",
            title="The run uses a small share of the GPU's peak FLOP/s",
            category="slow_throughput",
            summary=summary,
            evidence=(
                SourceRef(source=rate.line.source, line=rate.line.line, text=rate.line.text),
            ),
            values={
                "mfu": round(mfu, 5),
                "achieved_tflops_per_gpu": round(achieved, 3),
                "peak_tflops": peak,
                "gpu": gpu[0].name,
                "dtype": dtype,
                "low_mfu": round(LOW_MFU, 4),
                "rate": rate.kind,
            },
            arithmetic=Arithmetic(
                title="Model FLOPs utilisation per GPU", lines=tuple(lines), result=summary
            ),
        )
    ]
