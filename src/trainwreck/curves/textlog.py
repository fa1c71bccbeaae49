"""Metric values printed in plain logs -> a MetricTable.

Understands the HF Trainer's printed dicts, Megatron-LM iteration lines,
DeepSpeed/apex loss-scale overflow lines, tqdm/Lightning progress postfixes and
generic `step=… loss=…` / `loss: …` pairs. A line that names no step gets the
ordinal of the training-loss lines so far (`info["step_unit"]` says so).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from trainwreck.curves.names import canonical
from trainwreck.curves.table import TableBuilder
from trainwreck.model import MetricTable

NUMBER = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|NaN|NAN|inf|Inf|Infinity)"
_HF_DICT = re.compile(
    r"\{[^{}]*['\"](?:loss|eval_loss|train_loss|learning_rate|grad_norm)['\"][^{}]*\}"
)
# transformers 5 prints the values quoted: {'loss': '1.23', 'epoch': '0.5'}
_HF_PAIR = re.compile(
    rf"['\"]([^'\"]+)['\"]\s*:\s*['\"]?(?:tensor\(|np\.float\d+\()?({NUMBER})['\"]?"
)
_MEGATRON = re.compile(r"\biteration\s+(\d+)\s*/\s*\d+\s*\|")
_MEGATRON_PAIR = re.compile(rf"^\s*([A-Za-z][^:|]*?)\s*:\s*({NUMBER})\s*$")
_OVERFLOW = re.compile(
    rf"OVERFLOW!.*?Attempted loss scale:\s*({NUMBER}),?\s*reducing to\s*({NUMBER})"
    rf"|Gradient overflow\.\s+Skipping step, loss scaler \d+ reducing loss scale to ({NUMBER})"
)
_PAIR = re.compile(
    rf"(?<![\w/.])([A-Za-z][\w/.\-]*)['\"]?\s*[=:]\s*(?:tensor\()?({NUMBER})(?![\w.])"
)
_STEP = re.compile(r"(?i)\b(?:global[_ ])?(?:step|iter(?:ation)?)\b['\"]?\s*[=:]?\s*(\d+)")
_TQDM = re.compile(r"\|\s*(\d+)/(\d+)\s*\[")
_SUMMARY = ("train_runtime", "total_flos")
_TRAIN_LOSS = "loss"


def _float(text: str) -> float:
    return float(text.lower().replace("infinity", "inf"))


def _step(text: str) -> int | None:
    """A step number, or None for one no run reaches (inf, nan, 1e400)."""
    number = _float(text)
    return int(number) if math.isfinite(number) else None


class _LineReader:
    """Per-source state: the current step and how steps were found."""

    def __init__(self, source: str) -> None:
        self.builder = TableBuilder(source)
        self.step = 0  # last step seen or inferred
        self.inferred = False
        self.overflows = 0

    def _record(self, pairs: list[tuple[str, str]], step: int | None, line: int) -> None:
        names = {canonical(key): value for key, value in pairs}
        if step is None:
            if _TRAIN_LOSS in names:
                self.step += 1
            step = max(self.step, 1)
            self.inferred = True
        else:
            self.step = step
        for name, value in names.items():
            if name not in {"step", "global_step", "iteration", "iter"}:
                self.builder.add(name, step, _float(value), line)

    def read(self, line: int, text: str) -> None:
        if (overflow := _OVERFLOW.search(text)) is not None:
            self.overflows += 1
            reduced = overflow.group(2) or overflow.group(3)
            self.builder.add("loss_scale", max(self.step, 1), _float(reduced), line)
            self.builder.add("overflow", max(self.step, 1), 1.0, line)
            return
        if (hf_dict := _HF_DICT.search(text)) is not None:
            body = hf_dict.group(0)
            if any(word in body for word in _SUMMARY):
                return
            pairs = _HF_PAIR.findall(body)
            steps = (_step(v) for k, v in pairs if k in {"step", "global_step"})
            step = next((s for s in steps if s is not None), None)
            self._record(pairs, step, line)
            return
        if (megatron := _MEGATRON.search(text)) is not None:
            pairs = [m.groups() for p in text.split("|") if (m := _MEGATRON_PAIR.match(p))]
            self._record(pairs, int(megatron[1]), line)
            return
        self._generic(line, text)

    def _generic(self, line: int, text: str) -> None:
        pairs: list[tuple[str, str]] = _PAIR.findall(text)
        if not any(canonical(k) in {"loss", "eval_loss"} for k, _ in pairs):
            return
        step_match = _STEP.search(text) or _TQDM.search(text)
        self._record(pairs, int(step_match.group(1)) if step_match else None, line)

    def table(self) -> MetricTable:
        if self.inferred:
            self.builder.info["step_unit"] = "logging step (the log printed no step numbers)"
        if self.overflows:
            self.builder.info["overflow_events"] = self.overflows
        return self.builder.build()


def read_lines(source: str, lines: Iterable[tuple[int, str]]) -> MetricTable | None:
    """One table from one log's (line number, text) pairs; None when it held no metrics."""
    reader = _LineReader(source)
    for number, text in lines:
        lowered = text.lower()
        if "loss" in lowered or "overflow" in lowered:
            reader.read(number, text)
    table = reader.table()
    return table if table.series else None
