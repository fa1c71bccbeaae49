"""Parameters of the scripts that probe what surrounds the model: the serving
endpoint, the process group and the input pipeline."""

from __future__ import annotations

import re

from trainwreck.fixes.scripts.parameters import (
    Context,
    Found,
    Parameter,
    first,
    fix_change,
    pick,
)
from trainwreck.model import Hypothesis

_CONCURRENCY_WORDS = re.compile(r"(\d+)\s+(?:concurrent|parallel|simultaneous)", re.I)
_ALL_INTERFACES = ("0.0.0.0", "::")
# No rank count: the collective probe refuses to run rather than guess one.
UNKNOWN_WORLD_SIZE = 0
# The data-loader settings the throughput loop times, by their torch and HF Trainer names.
_WORKERS = ("num_workers", "dataloader_num_workers")
_PINNING = ("pin_memory", "dataloader_pin_memory")


def serving_parameters(ctx: Context) -> list[Parameter]:
    """Endpoint, concurrency and thresholds for the load test."""
    concurrency = pick(
        "concurrency",
        first(  # the load the user described or configured for, before the fix's cap
            _stated_concurrency(ctx.evidence.symptoms),
            ctx.config_value("max_num_seqs"),
            ctx.change("max_num_seqs"),
        ),
        8,
        "no concurrency in the evidence",
    )
    host = pick("host", ctx.config_value("host"), "127.0.0.1", "the server runs on this machine")
    if host.value in _ALL_INTERFACES:  # a server listening everywhere answers on loopback
        host = Parameter("host", "127.0.0.1", f"{host.source} {host.value}, reached on loopback")
    port = pick(
        "port",
        ctx.config_value("port"),
        8000,
        "vLLM's default --port "
        "(https://docs.vllm.ai/en/v0.8.1/serving/openai_compatible_server.html)",
    )
    model = first(ctx.config_value("served_model_name", "model"), _setup_model(ctx))
    rounds = 4 * concurrency.value if isinstance(concurrency.value, int) else 32
    return [
        Parameter(
            "endpoint",
            f"http://{host.value}:{port.value}/v1/completions",
            f"host: {host.source}; port: {port.source}",
        ),
        pick("model", model, "default", "the evidence names no served model"),
        concurrency,
        Parameter("requests", rounds, "four rounds of the concurrency, for percentiles"),
        pick("max_tokens", ctx.config_value("max_tokens"), 128, "a short completion"),
        Parameter(
            "prompt",
            "Summarise the causes of slow inference in one paragraph.",
            "a fixed prompt, so reruns compare like with like",
        ),
        Parameter("timeout_seconds", 300.0, "a request slower than this counts as an error"),
        Parameter("max_p95_seconds", 30.0, "[assumed] set your latency target"),
        Parameter("max_error_rate", 0.0, "a fixed server answers every request"),
        Parameter("min_requests_per_second", 0.0, "[assumed] set your throughput target"),
    ]


def _setup_model(ctx: Context) -> Found:
    model = ctx.evidence.setup.model
    return (model, "setup: model") if model else None


def _stated_concurrency(symptoms: str | None) -> Found:
    match = _CONCURRENCY_WORDS.search(symptoms or "")
    return (match.group(1), "symptoms text") if match else None


def collective_parameters(ctx: Context) -> list[Parameter]:
    """World size, backend and timeout for the all-reduce and barrier probe."""
    setup = ctx.evidence.setup
    world = first(
        (setup.world_size, "setup: world size") if setup.world_size else None,
        (setup.gpu_count, "setup: GPU count") if setup.gpu_count else None,
    )
    return [
        pick(
            "world_size",
            world,
            UNKNOWN_WORLD_SIZE,
            "no world size in the evidence: the probe refuses to run until you pass your "
            "run's number of ranks (--world-size N)",
        ),
        Parameter("backend", "nccl", "NCCL on GPUs; the probe falls back to gloo without them"),
        pick(
            "timeout_seconds",
            first(ctx.change("ddp_timeout"), ctx.config_value("ddp_timeout")),
            120.0,
            "a short timeout: a probe, not a run",
        ),
        Parameter(
            "async_error_handling",
            1,
            "TORCH_NCCL_ASYNC_ERROR_HANDLING=1: a collective past the timeout aborts the "
            "process instead of hanging it (torch.distributed.init_process_group docs)",
        ),
        Parameter("rounds", 3, "a few rounds show a rank that falls behind"),
        Parameter("elements", 1 << 20, "a 4 MiB float32 tensor per all_reduce"),
    ]


def changes_data_loader(hypothesis: Hypothesis) -> bool:
    """Whether a fix of `hypothesis` sets a data-loader setting the throughput loop times."""
    return fix_change(hypothesis, *_WORKERS, *_PINNING) is not None


def throughput_parameters(ctx: Context) -> list[Parameter]:
    """Before/after data-loader settings (the fix changes at least one: `changes_data_loader`)."""
    workers_after, pin_after = ctx.change(*_WORKERS), ctx.change(*_PINNING)
    workers_before = pick(
        "num_workers_before",
        ctx.config_value(*_WORKERS),
        0,
        "torch's DataLoader default: loading in the main process",
    )
    pin_before = pick("pin_memory_before", ctx.config_value(*_PINNING), False, "DataLoader default")
    setup = ctx.evidence.setup
    return [
        workers_before,
        pick("num_workers_after", workers_after, int(workers_before.value), "unchanged by the fix"),
        pin_before,
        pick("pin_memory_after", pin_after, bool(pin_before.value), "unchanged by the fix"),
        pick(
            "batch_size",
            (setup.batch_size, "setup: batch size") if setup.batch_size else None,
            32,
            "no batch size in the evidence",
        ),
        Parameter("steps", 40, "enough batches for a steady rate"),
        Parameter("sample_cost_ms", 2.0, "[assumed] per-sample preparation time; set yours"),
        Parameter("features", 1024, "[assumed] sample width"),
        Parameter("compute_repeats", 4, "[assumed] model work per batch"),
        Parameter("min_speedup", 1.2, "the fix must speed the loop up by at least 20%"),
        Parameter("max_data_wait", 0.5, "after the fix, at most half the time waits for data"),
    ]
