"""Metric files: HF `trainer_state.json` log_history becomes LogLines.

A NaN loss or a loss spike in `log_history` is evidence in the same way a log
line is, so each entry with a loss is rendered like the Trainer prints it:
`{'loss': nan, 'step': 10}`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from trainwreck.model import LogLine

MAX_ENTRIES = 5000
_FIELDS = ("loss", "eval_loss", "grad_norm", "learning_rate", "epoch", "step")


def _render(value: object) -> str:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return repr(value)


def trainer_state_lines(source: str, data: object) -> list[LogLine]:
    """One LogLine per log_history entry that has a loss, in the Trainer's format."""
    if not isinstance(data, Mapping):
        return []
    history = data.get("log_history")
    if not isinstance(history, list):
        return []
    lines: list[LogLine] = []
    for index, entry in enumerate(history[:MAX_ENTRIES], start=1):
        if not isinstance(entry, Mapping) or not ({"loss", "eval_loss"} & entry.keys()):
            continue
        parts = [f"'{key}': {_render(entry[key])}" for key in _FIELDS if key in entry]
        lines.append(LogLine(source=source, line=index, text="{" + ", ".join(parts) + "}"))
    return lines
