"""Which framework a fix's setting or command belongs to, and whether it concerns this run.

A KB fix is written for a failure family; a run uses only some of its
frameworks. Issue 18 found the difference leaking into reports: "warmup_ratio is
not a key of transformers" in plain-PyTorch runs, `SFTConfig.max_seq_length` in a
run without TRL, "dropped DataLoader.num_workers" in vLLM serving, and
`torch.backends.cudnn` commands for a JAX user. The run's frameworks come from
its context (`trainwreck.context`); this module only maps settings onto them.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from trainwreck.context.frameworks import with_foundations, without_torch
from trainwreck.fixes.named import brought_in, named
from trainwreck.fixes.targets import target
from trainwreck.kb.schema import PatternFix
from trainwreck.model import RunContext
from trainwreck.verify.guard import CLASS_FRAMEWORK

# Heads of KB change paths outside the classes we hold schemas for (CLASS_FRAMEWORK),
# and the launchers of `cli.` flags, by the framework name the context uses.
_HEAD_FRAMEWORK = {
    "ds_config": "deepspeed",
    "Trainer": "transformers",
    "from_pretrained": "transformers",
    "GenerationConfig": "transformers",
    "torch": "pytorch",
    "DataLoader": "pytorch",
    "DistributedSampler": "pytorch",
    "jax": "jax",
    "lightning": "lightning",
    "Fabric": "lightning",
    "EarlyStopping": "lightning",
    "vllm serve": "vllm",
    "torchrun": "pytorch",
    "accelerate launch": "accelerate",
    "deepspeed": "deepspeed",
}
# Environment variables only torch reads (`PYTORCH_CUDA_ALLOC_CONF`, `TORCH_NCCL_DUMP_ON_TIMEOUT`).
_TORCH_ENV = re.compile(r"(?:PY)?TORCH_")
# Training-data APIs: no serving engine reads them.
_TRAINING_DATA = frozenset({"DataLoader", "DistributedSampler"})
# A run that shows one of these trains (or fine-tunes) a model, whatever else it serves.
_TRAINING_FRAMEWORKS = frozenset(
    {"transformers", "trl", "peft", "accelerate", "deepspeed", "lightning", "megatron"}
)
SERVING_PHASE = "generation/serving"
# A shell command, Python one-liner or guard that runs torch (`python -c "import torch; ..."`,
# `torchrun ...`, `torch.backends.cudnn.enabled = False`).
_TORCH_CODE = re.compile(r"\bimport torch\b|\btorch\.\w|^\s*torchrun\b", re.M)


def _head(path: str) -> str:
    where = target(path)
    return where.owner.split(".", 1)[0] if where.kind == "key" else where.owner


def setting_framework(path: str) -> str | None:
    """The framework that reads the setting at `path`; None for one any run may set
    (an environment variable outside torch's own `TORCH_*`/`PYTORCH_*` names)."""
    where = target(path)
    if where.kind == "env":
        return "pytorch" if _TORCH_ENV.match(where.name) else None
    head = _head(path)
    if head in CLASS_FRAMEWORK:
        return CLASS_FRAMEWORK[head][0]
    return _HEAD_FRAMEWORK.get(head)


def serving(context: RunContext) -> bool:
    """A run that failed serving or generating, with no sign of a training framework."""
    trains = set(context.frameworks) & _TRAINING_FRAMEWORKS
    return context.phase == SERVING_PHASE and not trains


def _absent(frameworks: Collection[str], context: RunContext, brings: Collection[str]) -> bool:
    """Whether one of `frameworks` is neither shown by the run nor brought in by the fix;
    a run that shows nothing is held to nothing."""
    shown = with_foundations(context.frameworks)
    return bool(shown) and bool(set(frameworks) - shown - set(brings))


def wrong_for_run(path: str, context: RunContext, brings: Collection[str] = ()) -> bool:
    """Whether setting `path` is advice for another stack: a framework the run does
    not show and the fix does not bring in (torch in a JAX run, `TrainingArguments`
    in a plain PyTorch script, a ZeRO stage without DeepSpeed), a training DataLoader
    in a serving run. Such a change is left out of the fix."""
    framework = setting_framework(path)
    if framework is not None and _absent((framework,), context, brings):
        return True
    return _head(path) in _TRAINING_DATA and serving(context)


def code_wrong_for_run(code: str, context: RunContext) -> bool:
    """Whether a fix's command or a guard's code runs torch in a run that shows
    another stack and no torch."""
    return without_torch(context.frameworks) and bool(_TORCH_CODE.search(code))


def command_wrong_for_run(command: str, context: RunContext, brings: Collection[str] = ()) -> bool:
    """Whether a fix's command runs another stack's code or names a framework the run
    does not show (`pip install -U flash-attn` for an xformers build)."""
    return code_wrong_for_run(command, context) or _absent(named(command), context, brings)


def for_another_stack(fix: PatternFix, context: RunContext) -> bool:
    """Whether a KB fix is advice for another stack: it `requires` a framework the run
    does not show, or every change and command of it is for another stack (disabling
    `torch.backends.cudnn` for a JAX user). The fix is then no fix here."""
    shown = with_foundations(context.frameworks)
    if fix.requires and shown and not shown.intersection(fix.requires):
        return True
    brings = brought_in(fix.action)
    wrong = [wrong_for_run(change.path, context, brings) for change in fix.changes]
    wrong += [command_wrong_for_run(command, context, brings) for command in fix.commands]
    return bool(wrong) and all(wrong)


def concerns(path: str, context: RunContext) -> bool:
    """Whether a warning about setting `path` concerns this run: its framework is seen
    (or it belongs to none), and it is not advice for another stack."""
    framework = setting_framework(path)
    seen = framework is None or framework in context.frameworks
    return seen and not wrong_for_run(path, context)
