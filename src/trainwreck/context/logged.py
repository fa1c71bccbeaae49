"""The failure class the exception that ended the run states.

The user's words are read first (`stated.py`); where they state nothing, or only
"it crashes", the final exception's type and message say which kind of failure
it was: an allocation that failed, a refused setting, a missing package.
"""

from __future__ import annotations

import re

from trainwreck.model import Category, ExceptionRecord, StatedClass

# The class the final exception's "Type: message" states; first match wins.
_EXCEPTION_RULES: tuple[tuple[Category, re.Pattern[str]], ...] = (
    (
        "oom",
        re.compile(
            r"OutOfMemory|out of memory|MemoryError|Cannot allocate memory|signal: Killed|"
            r"No available memory"
        ),
    ),
    ("nan_inf", re.compile(r"(?i)\bnan\b|\binf\b|non-finite|overflow")),
    ("hang", re.compile(r"(?i)timed? ?out|timeout|deadlock|watchdog")),
    (
        "dependency_conflict",
        re.compile(
            r"ImportError|ModuleNotFoundError|undefined symbol|compiled against"
            r"|(?i:is required|(?:could not|cannot|can't|failed to) import)"
            # a version, but not autograd's "is at version 3; expected version 2"
            # (nor the "NCCL version 2.18.6" NCCL appends to every error)
            r"|(?i:(?<!is at )(?<!expected )(?<!nccl )\bversion\b)"
            # an API the installed release no longer (or not yet) has: "module 'jax' has no
            # attribute 'tree_multimap'", "operator torchvision::nms does not exist"
            r"|module '[\w.]+' has no attribute|operator \w+::\w+ does not exist"
            r"|(?i:not supported on python)"
            # a kernel library built without the backend: "xFormers wasn't built with CUDA support"
            r"|(?i:(?:was ?n[o']t|not) buil[dt] with)"
            # a build without kernels for this GPU: "no kernel image is available for execution"
            r"|(?i:no kernel image is available)"
        ),
    ),
    (
        "config_error",
        re.compile(
            # a config class the code cannot find ("name 'LoraConfig' is not defined", "'BertConfig'
            # object has no attribute") is a code error, as is a call that lacks a positional
            # argument ("missing 1 required positional argument")
            r"(?i)config(?!\w*'? (?:is not defined|object has no attribute))|"
            # but not TensorFlow's InvalidArgumentError type (a shape or value refused by an op,
            # batch-33's "ConcatOp : Dimensions of inputs should match"), nor a binding's type
            # error about one argument ("argument 'tokens': 'NoneType' object cannot be
            # interpreted as an integer", batch-33's LLaMA-Factory thread)
            r"(?<!positional )(?<!Invalid)argument(?! '\w+': )|unexpected keyword|invalid value|"
            r"not supported|"
            # pydantic's refusal of a config file: "1 validation error for DeepSpeedZeroConfig"
            r"validation errors? for|"
            # a setting's value refused by a validation: "Invalid data split: trainval,
            # possible_splits: [...]", "rollout_steps (250) must be divisible by ..." (pickle's
            # "invalid load key" is a corrupt file)
            r"\binvalid (?!literal\b|for\b|load\b)\w+|"
            r"must be (?:\w+ )?(?:one of|divisible|a multiple)|"
            r"possible[_ ](?:values|choices|splits)|expected one of|choose from|"
            # a setting the machine cannot honour, a named setting that is missing or unknown,
            # a message that opens with the command-line flag it refuses (TrainingArguments')
            r"does ?n[o']t support|:\s*--[a-z]\w+|target[_ ]modules|environment variable|"
            r"undefined (?:dataset|key|option|setting|argument|parameter)|"
            # advice to change a named setting: vLLM's "Try increasing `gpu_memory_utilization`
            # or decreasing `max_model_len`"
            r"(?:try|consider) (?:increas|decreas|reduc|lower|rais|sett?)\w* `?[a-z]+_[a-z_]+"
        ),
    ),
    ("crash", re.compile(r".")),
)


def text_class(text: str) -> Category:
    """The class an error's "Type: message" text states: a log's final exception, or one
    a user quotes."""
    return next(category for category, rule in _EXCEPTION_RULES if rule.search(text))


def exception_class(exc: ExceptionRecord) -> Category:
    """The class an exception's type and message state on their own."""
    return text_class(f"{exc.type}: {exc.message}")


# Exceptions that say how a run was stopped, not how it failed; a SystemExit that carries a
# message (`sys.exit("spec invalid: ...")`) is a program refusing to go on, and states a class.
_STOPPED = frozenset({"KeyboardInterrupt", "SystemExit"})
_EXIT_STATUS = re.compile(r"-?\d*")


def from_exception(exc: ExceptionRecord | None) -> StatedClass | None:
    """The class the exception that ended the run states; None for a manual stop."""
    if exc is None:
        return None
    name = exc.type.rsplit(".", 1)[-1]
    if name in _STOPPED and (name != "SystemExit" or _EXIT_STATUS.fullmatch(exc.message.strip())):
        return None
    first_line = exc.message.splitlines()[0] if exc.message else ""
    return StatedClass(
        category=exception_class(exc), source="logs", words=(f"{exc.type}: {first_line}"[:160],)
    )
