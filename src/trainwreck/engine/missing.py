"""What to collect next when the evidence does not decide (issue: saying what is missing).

When no hypothesis reaches Medium, a ranked list alone misleads: the report
says it is undecided, then names the evidence that separates the leading
candidates (the exact command or setting that produces it) and the questions
whose answers do. The requests are per failure class; each names a command or
setting documented by the framework that owns it.
"""

from __future__ import annotations

from trainwreck.context.frameworks import without_torch
from trainwreck.model import Category, EvidenceRequest, Hypothesis, InputKind, RunContext

# (what, how) per class: the cheapest evidence that tells that class's causes apart.
REQUESTS: dict[Category, tuple[tuple[str, str], ...]] = {
    "oom": (
        (
            "the allocator's state at the OOM",
            "catch torch.cuda.OutOfMemoryError and print torch.cuda.memory_summary()",
        ),
        (
            "whether the host kernel killed the process",
            "dmesg -T | grep -i -E 'killed process|out of memory'",
        ),
    ),
    "hang": (
        (
            "the stack of every rank while it hangs",
            "nvidia-smi --query-compute-apps=pid --format=csv,noheader | xargs -n1 py-spy dump "
            "--pid (every process on the GPUs is a rank)",
        ),
        (
            "the collectives each rank last issued",
            "rerun with NCCL_DEBUG=INFO TORCH_NCCL_TRACE_BUFFER_SIZE=2000 "
            "TORCH_NCCL_DUMP_ON_TIMEOUT=1 (PyTorch's flight recorder)",
        ),
    ),
    "nan_inf": (
        (
            "the first operation that produced a NaN",
            "wrap a few steps in torch.autograd.set_detect_anomaly(True)",
        ),
        ("the loss and gradient norm of every step", "log every step (logging_steps=1)"),
    ),
    "divergence": (
        (
            "the loss, learning-rate and gradient-norm curves",
            "the run's trainer_state.json (log_history) or metrics file",
        ),
        ("the optimizer and scheduler settings", "the training config or TrainingArguments"),
    ),
    "slow_throughput": (
        ("where a step's time goes", "a torch.profiler trace of 5 steps after warm-up"),
        ("whether the GPU waits for data", "nvidia-smi dmon -s u while training"),
    ),
    "wrong_output": (
        (
            "the exact generation settings and the tokenizer's padding side",
            "print model.generation_config and tokenizer.padding_side before generating",
        ),
        (
            "whether the base model gives the same output on one prompt",
            "run one prompt through the base and the trained model with greedy decoding",
        ),
    ),
    "dependency_conflict": (
        ("the installed versions", "python -m torch.utils.collect_env; pip list"),
        (
            "what changed between the working and the failing environment",
            "pip freeze > env.txt in both, then diff them",
        ),
    ),
    "config_error": (
        ("the full configuration", "the config file(s) and the exact launch command"),
        ("the installed versions", "pip list"),
    ),
    "crash": (
        (
            "the full traceback with the failing kernel named",
            "rerun with CUDA_LAUNCH_BLOCKING=1 (for CUDA errors)",
        ),
        ("the installed versions", "python -m torch.utils.collect_env"),
    ),
}
# A hang in a run that shows no GPU (a gloo or CPU job): the same questions, asked with tools
# that work anywhere; NCCL's flight recorder and nvidia-smi have nothing to report there. (An
# OOM with no GPU shown keeps the CUDA requests: vLLM and notebook tracebacks often hide it.)
WITHOUT_GPU: dict[Category, tuple[tuple[str, str], ...]] = {
    "hang": (
        (
            "the stack of every rank while it hangs",
            "py-spy dump --pid on each rank's process id (ps -ef lists the training processes)",
        ),
        (
            "the collectives each rank issued, checked across ranks",
            "rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL",
        ),
    ),
}
# A run that shows JAX or TensorFlow and never torch: torch's tools (anomaly mode, the
# allocator summary, torch.profiler, collect_env) and the HF generation config do not apply.
# Each stack's own tool stands in where it has one (the JAX debugging-flags and device-memory
# profiling guides; tf.debugging.enable_check_numerics); elsewhere a stack-neutral request
# does. The torch table had asked a JAX run (case jax-debug-nans-log-25299) for
# torch.autograd.set_detect_anomaly.
_VERSIONS = ("the installed versions", "pip list")
_STEP_LOSS = ("the loss and gradient norm of every step", "print them every step")
NOT_TORCH_REQUESTS: dict[str, dict[Category, tuple[tuple[str, str], ...]]] = {
    "jax": {
        "nan_inf": (
            (
                "the first operation that produced a NaN",
                "rerun with JAX_DEBUG_NANS=True (or jax.config.update('jax_debug_nans', True))",
            ),
            (_STEP_LOSS[0], "jax.debug.print them inside the jitted step"),
        ),
        "oom": (
            (
                "which arrays hold the device memory",
                "jax.profiler.save_device_memory_profile('memory.prof') before the failing step",
            ),
            REQUESTS["oom"][1],
        ),
        "slow_throughput": (
            ("where a step's time goes", "a jax.profiler.trace of 5 steps after warm-up"),
            REQUESTS["slow_throughput"][1],
        ),
        "wrong_output": (
            (
                "whether compiled and eager execution agree",
                "rerun one step with JAX_DISABLE_JIT=True and compare the outputs",
            ),
            _VERSIONS,
        ),
    },
    "tensorflow": {
        "nan_inf": (
            (
                "the first op whose output holds a NaN or inf",
                "call tf.debugging.enable_check_numerics() at the start of the script",
            ),
            _STEP_LOSS,
        ),
    },
}
# What any stack answers the same way, where the torch table names a torch tool.
NEUTRAL_REQUESTS: dict[Category, tuple[tuple[str, str], ...]] = {
    "nan_inf": (_STEP_LOSS,),
    "oom": (REQUESTS["oom"][1],),
    "hang": (*WITHOUT_GPU["hang"][:1], ("NCCL's own log", "rerun with NCCL_DEBUG=INFO")),
    "slow_throughput": (REQUESTS["slow_throughput"][1],),
    "divergence": (
        ("the loss, learning-rate and gradient-norm curves", "the run's metrics log"),
        ("the optimizer and scheduler settings", "the training config or script"),
    ),
    "wrong_output": (_VERSIONS,),
    "dependency_conflict": (_VERSIONS, REQUESTS["dependency_conflict"][1]),
    "crash": (("the full traceback", "the complete output of the failing run"), _VERSIONS),
}
# Requests a kind of input the user already handed in answers: not asked for again.
ANSWERED_BY: dict[str, InputKind] = {
    "where a step's time goes": "profiler_trace",
    "the collectives each rank last issued": "flight_recorder",
}
GPU_WORDS = frozenset({"cuda", "nccl"})
MAX_QUESTIONS = 2


def _shows_gpu(context: RunContext) -> bool:
    return context.hardware in ("cuda", "rocm") or bool(GPU_WORDS & set(context.frameworks))


def next_evidence(
    hypotheses: list[Hypothesis], context: RunContext, given: frozenset[InputKind] = frozenset()
) -> tuple[tuple[EvidenceRequest, ...], tuple[str, ...]]:
    """Evidence requests and questions that would separate the leading hypotheses, less
    what the kinds of input `given` already hold."""
    leading = hypotheses[:3]
    category = context.stated.category if context.stated else None
    if category is None and leading:
        category = leading[0].category
    ids = tuple(h.id for h in leading)
    chosen = category or "crash"
    requests = tuple(
        EvidenceRequest(what=what, how=how, separates=ids)
        for what, how in _requests(chosen, context)
        if ANSWERED_BY.get(what) not in given
    )
    questions = tuple(
        f"{h.title}? {h.discriminator}" for h in leading[:MAX_QUESTIONS] if h.discriminator
    )
    return requests, questions


def _requests(category: Category, context: RunContext) -> tuple[tuple[str, str], ...]:
    """The class's requests in the run's own stack: JAX's or TensorFlow's tools in a run
    that never shows torch, the hang requests without NCCL's tools in a run with no GPU."""
    if without_torch(context.frameworks):
        for stack, table in NOT_TORCH_REQUESTS.items():
            if stack in context.frameworks and category in table:
                return table[category]
        return NEUTRAL_REQUESTS.get(category, REQUESTS.get(category, REQUESTS["crash"]))
    if not _shows_gpu(context) and category in WITHOUT_GPU:
        return WITHOUT_GPU[category]
    return REQUESTS.get(category, REQUESTS["crash"])
