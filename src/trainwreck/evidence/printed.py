"""Settings a log prints about its own run, read as one more config for the setup.

Many runs state their setup only in their output: a `key=value` printout of the
settings, an engine's config line (vLLM's "Initializing an LLM engine with config:
model='...', dtype=torch.float16, max_seq_len=4096"), the HF Trainer's banner, or the
numbers of DeepSpeed's batch check. A config file, when given, still wins (see setup).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from trainwreck.evidence.configs import coerce
from trainwreck.model import LogLine, Scalar

_PAIR = re.compile(r"(?<![\w.\-])([A-Za-z_][\w.]*)=('[^']*'|\"[^\"]*\"|[^\s,()'\"]+)")
# One `x=y` in a line is prose or code ("if batch_size=32"); a printout has several.
MIN_PAIRS = 2
# A tensor's repr carries `device=` and `dtype=` of that tensor, not of the run.
_REPRS = ("tensor(", "Parameter(", "Tensor(")
# (pattern, the setting each group is): sentences that state a setting.
_PHRASES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"Instantaneous batch size per device = (\d+)"), ("per_device_train_batch_size",)),
    (re.compile(r"Gradient Accumulation steps = (\d+)"), ("gradient_accumulation_steps",)),
    (
        # DeepSpeed: "train_batch_size is not equal to micro_batch_per_gpu *
        # gradient_acc_step * world_size 256 != 2 * 18 * 7"
        re.compile(r"gradient_acc_step \* world_size \d+ != (\d+) \* (\d+) \* (\d+)"),
        ("train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "world_size"),
    ),
)


def _pairs(text: str) -> dict[str, Scalar]:
    if any(marker in text for marker in _REPRS):
        return {}
    pairs = _PAIR.findall(text)
    if len(pairs) < MIN_PAIRS:
        return {}
    return {key: coerce(value.strip("'\""), key) for key, value in pairs}


def printed_settings(lines: Iterable[LogLine]) -> dict[str, Scalar]:
    """Settings the log states, the first statement of each winning."""
    found: dict[str, Scalar] = {}
    for item in lines:
        for key, value in _pairs(item.text).items():
            found.setdefault(key, value)
        for pattern, names in _PHRASES:
            match = pattern.search(item.text)
            if match:
                for name, value in zip(names, match.groups(), strict=True):
                    found.setdefault(name, int(value))
    return found
