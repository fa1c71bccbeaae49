"""Parameters of the scripts that run the user's model: training steps and the peak step.

Both read the setup (model, batch size, sequence length, precision) and the fix's
changes; a value the evidence does not give is a stated assumption, never a blank.
"""

from __future__ import annotations

from trainwreck.fixes.scripts.parameters import Context, Found, Parameter, first, pick
from trainwreck.model import Scalar

STAND_IN_MODEL = "tiny-llama"
# The pattern's own fix: "Lower the peak learning rate 3-10x"; the script tries the
# larger cut, so a pass is not borderline.
_LEARNING_RATE_CUTS = {"loss-divergence-high-learning-rate": 10}
_PRECISIONS = ("bf16", "fp16", "fp32")


def model_parameters(ctx: Context) -> list[Parameter]:
    """Model, batch size, sequence length and precision, each from the fix, else the setup."""
    setup = ctx.evidence.setup
    model = first(ctx.change("model_name_or_path"), ctx.config_value("model_name_or_path"))
    if model is None and setup.model:
        model = setup.model, "setup: model"
    batch = first(ctx.change("per_device_train_batch_size", "micro_batch_size", "batch_size"))
    seq_len = first(ctx.change("max_seq_length", "max_length", "cutoff_len", "seq_len"))
    return [
        pick(
            "model",
            model,
            STAND_IN_MODEL,
            "the evidence names no model: a 2-layer "
            "Llama built by the script stands in; pass your model id or path",
        ),
        pick(
            "batch_size",
            batch or _setup(setup.batch_size, "batch size"),
            8,
            "no batch size in the evidence",
        ),
        pick(
            "seq_len",
            seq_len or _setup(setup.seq_len, "sequence length"),
            512,
            "no sequence length in the evidence",
        ),
        pick("precision", _precision(ctx), "fp32", "no mixed precision in the evidence"),
    ]


def stability_parameters(ctx: Context) -> list[Parameter]:
    """The model's values plus the optimisation settings with the fix applied."""
    return [
        *model_parameters(ctx),
        _learning_rate(ctx),
        _number(
            ctx,
            "max_grad_norm",
            ("max_grad_norm", "gradient_clipping"),
            0.0,
            "no gradient clipping in the evidence: clipping off",
        ),
        *_warmup(ctx),
        _number(ctx, "adam_beta2", ("adam_beta2",), 0.999, "torch.optim.AdamW's default beta2"),
        _number(
            ctx, "adam_epsilon", ("adam_epsilon", "eps"), 1e-8, "torch.optim.AdamW's default eps"
        ),
        Parameter(
            "steps",
            30,
            "[assumed] enough steps for an early instability; raise it "
            "to reach the step where your run failed",
        ),
        Parameter(
            "spike_factor",
            10.0,
            "a step's loss above this many times the running "
            "median of the earlier steps fails the check",
        ),
        Parameter("seed", 0, "fixed so that a rerun sees the same batches"),
    ]


def _learning_rate(ctx: Context) -> Parameter:
    """The fix's rate, else the run's (config, then the peak the log printed), cut as the
    pattern's fix says; transformers' default only when the evidence has none."""
    rate = first(
        ctx.change("learning_rate", "lr"),
        ctx.config_value("learning_rate", "lr"),
        ctx.logged_peak("learning_rate"),
    )
    cut = _LEARNING_RATE_CUTS.get(ctx.hypothesis.id)
    learning_rate = pick(
        "learning_rate",
        rate,
        5e-5,
        "no learning rate in the evidence; transformers' "
        "TrainingArguments default (kb:loss-divergence-high-learning-rate)",
    )
    if cut and rate is not None and isinstance(learning_rate.value, float):
        learning_rate = Parameter(
            "learning_rate",
            learning_rate.value / cut,
            f"{learning_rate.source} = {learning_rate.value}, divided by {cut} (the fix: lower "
            "the peak learning rate 3-10x); pass the old value to see the failure come back",
        )
    return learning_rate


def memory_parameters(ctx: Context) -> list[Parameter]:
    """The peak step's shape with the fix applied, and the budget it must fit."""
    checkpointing = first(
        ctx.change("gradient_checkpointing"), ctx.config_value("gradient_checkpointing")
    )
    alloc_conf = first(ctx.change("PYTORCH_CUDA_ALLOC_CONF"))
    capacity = first(
        ctx.finding_value("memory.budget", "capacity_gib"),
        ctx.finding_value("cuda.oom", "total"),
        _setup(ctx.evidence.setup.gpu_memory_gib, "GPU memory"),
    )
    predicted = first(ctx.finding_value("memory.budget", "estimated_gib"), capacity)
    return [
        *model_parameters(ctx),
        pick(
            "gradient_checkpointing",
            _as_bool(checkpointing),
            False,
            "gradient checkpointing is not on in the evidence",
        ),
        pick("cuda_alloc_conf", alloc_conf, "", "no allocator setting in the fix"),
        pick(
            "budget_gib", capacity, 80.0, "no GPU capacity in the evidence; set your card's memory"
        ),
        pick("predicted_gib", predicted, 80.0, "no memory budget was computed for this evidence"),
        Parameter("seed", 0, "fixed so that a rerun sees the same batch"),
    ]


def _warmup(ctx: Context) -> list[Parameter]:
    """Warmup as a ratio and a step count; transformers 5 reads warmup_steps below 1 as a
    ratio (training_args.py, get_warmup_steps), so such a value becomes the ratio."""
    ratio = first(ctx.change("warmup_ratio"), ctx.config_value("warmup_ratio"))
    steps = first(ctx.change("warmup_steps"), ctx.config_value("warmup_steps"))
    if steps is not None and isinstance(steps[0], float) and 0 < steps[0] < 1:
        ratio, steps = (steps[0], f"{steps[1]} (below 1: a fraction of the steps)"), None
    return [
        pick("warmup_ratio", ratio, 0.0, "no warmup in the evidence"),
        pick("warmup_steps", steps, 0, "no warmup in the evidence"),
    ]


def _precision(ctx: Context) -> Found:
    for leaf in ("bf16", "fp16"):
        found = ctx.change(leaf)
        if found is not None and found[0] is True:
            return leaf, found[1]
    precision = ctx.evidence.setup.precision
    return (precision, "setup: precision") if precision in _PRECISIONS else None


def _number(
    ctx: Context, name: str, leaves: tuple[str, ...], default: float, why: str
) -> Parameter:
    return pick(name, first(ctx.change(*leaves), ctx.config_value(*leaves)), default, why)


def _setup(value: Scalar, label: str) -> Found:
    return None if value is None else (value, f"setup: {label}")


def _as_bool(found: Found) -> Found:
    if found is None:
        return None
    value = found[0]
    if isinstance(value, str):
        value = value.lower() in ("true", "1", "yes")
    return (value, found[1]) if isinstance(value, bool) else None
