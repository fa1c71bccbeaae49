"""`trainwreck memory`: per-GPU memory, line by line, from a model config and the run's settings."""

from __future__ import annotations

import click

from trainwreck.cli.output import emit, markdown_or_json, spinner
from trainwreck.errors import UsageError
from trainwreck.memory import Serving, Training, estimate
from trainwreck.memory.budget import LORA_DEFAULT_TARGETS
from trainwreck.memory.gpus import parse_gpus
from trainwreck.memory.render import as_json, markdown


@click.command()
@click.option(
    "--model", "-m", required=True, help="config.json, a model directory, or a bundled hub id."
)
@click.option("--gpus", "gpus_text", help="GPUs per job, e.g. 4xA100-80GB or H100-SXM.")
@click.option("--batch-size", type=int, default=1, show_default=True, help="Micro-batch per GPU.")
@click.option("--seq-len", type=int, default=2048, show_default=True, help="Tokens per sequence.")
@click.option(
    "--dtype", type=click.Choice(["fp32", "bf16", "fp16"]), default="bf16", show_default=True
)
@click.option(
    "--quant", type=click.Choice(["int8", "nf4", "fp4"]), help="bitsandbytes base weights."
)
@click.option(
    "--optimizer",
    type=click.Choice(
        ["adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "sgd-momentum", "adafactor"]
    ),
    default="adamw",
    show_default=True,
)
@click.option(
    "--zero",
    type=int,
    default=0,
    show_default=True,
    help="DeepSpeed ZeRO stage (3 = FSDP full shard).",
)
@click.option("--lora", "lora_text", help="LoRA adapters: r=16[,targets=q_proj+v_proj].")
@click.option("--gradient-checkpointing", is_flag=True, help="Recompute activations in backward.")
@click.option(
    "--attention", type=click.Choice(["sdpa", "flash", "eager"]), default="sdpa", show_default=True
)
@click.option(
    "--offload-optimizer", is_flag=True, help="Optimizer state in CPU RAM (ZeRO-Offload)."
)
@click.option("--offload-params", is_flag=True, help="Parameters in CPU RAM (ZeRO-3 only).")
@click.option(
    "--amp",
    is_flag=True,
    help="Autocast mixed precision (Trainer --bf16/--fp16 without DeepSpeed): fp32 weights, "
    "gradients and optimizer state, activations in --dtype. diagnose assumes it for such runs.",
)
@click.option(
    "--master-weights/--no-master-weights",
    default=None,
    help="fp32 master copy (default: on under ZeRO).",
)
@click.option(
    "--exact",
    is_flag=True,
    help="Also measure a real training step on fake tensors (needs torch and transformers).",
)
@click.option("--serve", is_flag=True, help="Inference: KV cache and the vLLM memory budget.")
@click.option("--max-model-len", type=int, default=4096, show_default=True)
@click.option("--gpu-memory-utilization", type=float, default=0.9, show_default=True)
@click.option("--tensor-parallel", type=int, default=1, show_default=True)
@markdown_or_json
def memory(
    gpus_text: str | None,
    lora_text: str | None,
    fmt: str,
    serve: bool,
    exact: bool,
    **settings: object,
) -> None:
    """Per-GPU memory, line by line, from a model's config.json and the run's settings.

    \b
    Examples:
      trainwreck memory --model meta-llama/Llama-3.1-8B --gpus 4xA100-80GB \\
          --batch-size 4 --seq-len 4096 --zero 3 --gradient-checkpointing
      trainwreck memory --model Qwen/Qwen2.5-7B-Instruct --gpus A10G --quant nf4 --lora r=16
      trainwreck memory --model meta-llama/Llama-2-70b-chat-hf --serve --gpus 4xH100 \\
          --tensor-parallel 4 --max-model-len 4096

    --model also takes a config.json or a model directory (./my-model/).
    --gpus takes names as people write them (H100, 3xA100, 4090); a name
    with several variants is read as one of them, and the output says which.
    """
    context = click.get_current_context()
    given = {
        name: f"--{name.replace('_', '-')} {value}"
        for name, value in settings.items()
        if context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    }
    count, gpu = parse_gpus(gpus_text) if gpus_text else (1, None)
    model = str(settings.pop("model"))
    if serve:
        run: Training | Serving = Serving(
            max_model_len=settings["max_model_len"],  # type: ignore[arg-type]
            gpu_memory_utilization=settings["gpu_memory_utilization"],  # type: ignore[arg-type]
            dtype=settings["dtype"],  # type: ignore[arg-type]
            tensor_parallel=settings["tensor_parallel"],  # type: ignore[arg-type]
            origins=given,
        )
    else:
        lora_r, targets = _parse_lora(lora_text)
        if lora_text:
            given["lora_r"] = f"--lora {lora_text}"
        for name in ("max_model_len", "gpu_memory_utilization", "tensor_parallel"):
            settings.pop(name)
        run = Training(gpus=count, lora_r=lora_r, lora_targets=targets, origins=given, **settings)  # type: ignore[arg-type]
    with spinner("Measuring a training step on fake tensors..." if exact else "Computing..."):
        result = estimate(model, run, gpu, count, exact=exact)
    emit(as_json(result) if fmt == "json" else markdown(result), None, markdown=fmt == "markdown")


def _parse_lora(text: str | None) -> tuple[int | None, tuple[str, ...]]:
    """`r=16,targets=q_proj+v_proj` into (16, ("q_proj", "v_proj"))."""
    if not text:
        return None, LORA_DEFAULT_TARGETS
    fields = dict(part.partition("=")[::2] for part in text.split(","))
    try:
        rank = int(fields.get("r", ""))
    except ValueError:
        raise UsageError(f"--lora {text}: give the rank as r=N (e.g. r=16)") from None
    targets = tuple(t for t in fields.get("targets", "").split("+") if t) or LORA_DEFAULT_TARGETS
    return rank, targets
