"""The tool commands beside `diagnose`: `memory`, `check`, `env`, `curves` and `checkpoints`.

Each is a thin shell: parse the options, call the library (imported only when
the command runs), render, exit. `cli.py` registers them on the group.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from trainwreck.cli_output import emit, spinner
from trainwreck.errors import UsageError, why_not_read
from trainwreck.redact import redact

if TYPE_CHECKING:
    from trainwreck.model import Finding, MetricTable


# The report formats of the tool commands (diagnose adds HTML, env prints text).
markdown_or_json = click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
)


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
    from trainwreck.memory import Serving, Training, estimate
    from trainwreck.memory.gpus import parse_gpus
    from trainwreck.memory.render import as_json, markdown

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
    from trainwreck.memory.budget import LORA_DEFAULT_TARGETS

    if not text:
        return None, LORA_DEFAULT_TARGETS
    fields = dict(part.partition("=")[::2] for part in text.split(","))
    try:
        rank = int(fields.get("r", ""))
    except ValueError:
        raise UsageError(f"--lora {text}: give the rank as r=N (e.g. r=16)") from None
    targets = tuple(t for t in fields.get("targets", "").split("+") if t) or LORA_DEFAULT_TARGETS
    return rank, targets


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option(
    "--framework",
    metavar="NAME",
    help="Check every file as this framework: transformers, trl (or trl:DPOConfig), peft, "
    "accelerate, deepspeed, vllm. Default: detected per file.",
)
@click.option(
    "--version",
    "version_texts",
    multiple=True,
    metavar="[NAME=]X.Y.Z",
    help="The framework version to check against (bare X.Y.Z needs --framework). Repeatable. "
    "Default: the installed version, else the newest snapshot.",
)
@markdown_or_json
@click.option(
    "--live/--no-live",
    default=True,
    show_default=True,
    help="Read the installed framework's classes when it is the version checked.",
)
def check(
    files: tuple[str, ...],
    framework: str | None,
    version_texts: tuple[str, ...],
    fmt: str,
    live: bool,
) -> None:
    """Check config FILES against the schema of your framework version.

    FILES: TrainingArguments / TRL / PEFT / vLLM configs (JSON, YAML, TOML), DeepSpeed
    JSON, Accelerate YAML, mixed recipes (LLaMA-Factory, axolotl), or a launch command
    (`python train.py --key value ...`). Files checked together are also checked
    against each other (world size, ZeRO-3 with device_map, LoRA targets vs a config.json).

    \b
    Exit status: 0 no errors (warnings may be printed), 1 errors found,
    2 a file could not be parsed (one line per file on stderr; the others are checked).
    \b
    Examples:
      trainwreck check train.yaml ds_config.json
      trainwreck check args.json --framework transformers --version 4.46.0
      trainwreck check recipe.yaml --version transformers=4.52.4 --version trl=0.19.1
    """
    from trainwreck.verify import check_files
    from trainwreck.verify.render import as_json, as_markdown, problem_count

    versions: dict[str, str] = {}
    for text in version_texts:
        name, sep, number = text.rpartition("=")
        if not sep and not framework:
            raise UsageError(f"--version {text}: give NAME={text} or use --framework")
        versions[name if sep else str(framework).split(":", 1)[0]] = number
    reports = check_files(files, framework, versions, use_live=live)
    emit(as_json(reports) if fmt == "json" else as_markdown(reports), None, fmt == "markdown")
    unreadable = [r for r in reports if r.error]
    for report in unreadable:
        click.echo(f"trainwreck: error: {redact(report.error or '')}", err=True)
    sys.exit(2 if unreadable else 1 if problem_count(reports) else 0)


@click.command("env")
@click.option(
    "--from",
    "from_files",
    multiple=True,
    metavar="FILE",
    help="A captured listing instead of this interpreter: pip freeze/list, conda list, "
    "uv pip list, collect_env, nvidia-smi, nvcc --version ('-' for stdin). Repeatable.",
)
@click.option(
    "--torch", "with_torch", is_flag=True, help="Also import torch for its CUDA/cuDNN/NCCL."
)
@click.option(
    "--log",
    "log_files",
    multiple=True,
    metavar="FILE",
    help="Trace ABI errors in a log. Repeatable.",
)
@click.option(
    "--site-packages",
    "site_packages",
    multiple=True,
    metavar="DIR",
    help="Read another environment's site-packages instead of this interpreter's.",
)
@click.option("--packages", "list_packages", is_flag=True, help="List every package too.")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True
)
def env_command(
    from_files: tuple[str, ...],
    site_packages: tuple[str, ...],
    with_torch: bool,
    log_files: tuple[str, ...],
    list_packages: bool,
    fmt: str,
) -> None:
    """Check an environment: conflicting requirements, mismatched builds, known bugs.

    Exit status 1 when a conflict is an error (like `pip check`).

    \b
    Examples:
      trainwreck env
      trainwreck env --torch
      pip freeze > env.txt; trainwreck env --from env.txt --from nvidia-smi.txt
      trainwreck env --from env.txt --log train.log --format json
      trainwreck env --site-packages ~/venvs/train/lib/python3.11/site-packages
    """
    from trainwreck.env.report import as_json, build_report, text

    report = build_report(from_files, log_files, with_torch=with_torch, site_packages=site_packages)
    emit(as_json(report) if fmt == "json" else text(report, list_packages), None)
    if report.errors:
        sys.exit(1)


def curve_results(
    paths: tuple[str, ...], config_files: tuple[str, ...] = ()
) -> list[tuple[MetricTable, list[Finding]]]:
    """Each metric history in PATHS with its findings (no knowledge base needed).

    Raises UsageError when there is none, with the first reason a file was skipped.
    """
    from trainwreck.analyzers import KEEP
    from trainwreck.analyzers.curves import per_table
    from trainwreck.evidence.collect import collect

    evidence = collect(paths, config_files=config_files, keep=KEEP)
    results = per_table(evidence)
    if not results:
        why = f" ({evidence.gaps[0].source}: {evidence.gaps[0].reason})" if evidence.gaps else ""
        raise UsageError(f"no metric history found in {', '.join(paths)}{why}")
    return results


@click.command("curves")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--config",
    "config_files",
    multiple=True,
    metavar="FILE",
    help="A training config, for warmup and batch-size facts. Repeatable.",
)
@click.option(
    "--plot",
    "plot_target",
    metavar="OUT.svg",
    help="Also draw each history as SVG (a second source goes to OUT.2.svg, ...).",
)
@markdown_or_json
def curves(
    paths: tuple[str, ...], config_files: tuple[str, ...], plot_target: str | None, fmt: str
) -> None:
    """Find the events in a run's metric curves: NaN onset, spikes, divergence, plateaus.

    PATHS: trainer_state.json, JSONL/CSV metric files, MLflow or TensorBoard runs,
    training logs, or a run directory holding them.

    \b
    Examples:
      trainwreck curves output/checkpoint-500/trainer_state.json
      trainwreck curves runs/exp1/ --plot exp1.svg
      trainwreck curves metrics.jsonl --format json
    """
    from trainwreck.curves.report import as_json, as_markdown, figures, plot_paths, plots_available

    if "-" in paths:
        raise UsageError("curves reads files and directories, not stdin")
    for path in paths:
        try:  # a file in a folder we may not search is unreadable, not missing
            os.stat(path)
        except (OSError, ValueError) as error:
            raise UsageError(f"{path}: {why_not_read(error)}") from None
    if plot_target and not plots_available():
        from trainwreck.curves.plot import PLOTS_MISSING

        raise UsageError(PLOTS_MISSING)
    results = curve_results(paths, config_files)
    written: list[str] = []
    if plot_target:
        drawn = figures(results).items
        for target, figure in zip(plot_paths(plot_target, len(drawn)), drawn, strict=True):
            emit(figure.svg, target, inputs=(*paths, *config_files))
            written.append(target)
    text = as_json(results, written) if fmt == "json" else as_markdown(results, written)
    emit(redact(text), None, markdown=fmt == "markdown")


@click.command("checkpoints")
@click.argument("directory")
@markdown_or_json
def checkpoints(directory: str, fmt: str) -> None:
    """Which checkpoint to resume from after a NaN or a crash.

    Checks every checkpoint under DIRECTORY (HF Trainer `checkpoint-<step>/` folders,
    Lightning `.ckpt`, plain `.pt`/`.pth`/`.safetensors` files): each tensor is read and
    tested for NaN/Inf (safetensors without torch; torch files only with
    `torch.load(weights_only=True)`, never a full unpickle), truncated files are named,
    and the step of each is set against the first non-finite loss or gradient norm in
    the run's metric history. Prints the last healthy checkpoint saved before it and
    the command that resumes from it.

    \b
    Examples:
      trainwreck checkpoints output/
      trainwreck checkpoints lightning_logs/version_0/checkpoints --format json
    """
    from trainwreck.checkpoints import inspect_checkpoints
    from trainwreck.checkpoints.render import as_json, as_markdown

    if not os.path.isdir(directory):
        why = "not a directory" if os.path.exists(directory) else "no such directory"
        raise UsageError(f"{directory}: {why}")
    report = inspect_checkpoints(directory)
    if not report.checkpoints:
        raise UsageError(f"no checkpoints found in {directory}")
    text = as_json(report) if fmt == "json" else as_markdown(report)
    emit(redact(text), None, markdown=fmt == "markdown")
