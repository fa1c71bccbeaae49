"""The words every model shares: failure classes, confidence levels, the frozen base."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

Category = Literal[
    "oom",
    "nan_inf",
    "divergence",
    "crash",
    "hang",
    "slow_throughput",
    "wrong_output",
    "dependency_conflict",
    "config_error",
]
CATEGORIES: tuple[Category, ...] = get_args(Category)
Confidence = Literal["high", "medium", "low"]
Grounding = Literal["kb", "web", "ungrounded"]
# What a matched line is to the failure: a root candidate, a knock-on effect of
# another failure, a record that confirms one (a kernel OOM-kill line), advice the
# framework printed (never a cause), or plain context.
Role = Literal["root", "cascade", "confirmation", "advice", "context"]
InputKind = Literal[
    "log",
    "config",
    "env",
    "model_config",
    "metrics",
    "symptoms",
    "code",
    "flight_recorder",
    "profiler_trace",
]
# Where Python source came from: a .py file, or code pasted into a log or the symptoms.
CodeOrigin = Literal["file", "log", "symptoms"]
Scalar = str | int | float | bool | None


class Frozen(BaseModel):
    """Base for every model: immutable, and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
