"""Parameters of the reruns that measure: a slow run's throughput, a wrong run's metric.

Both rerun the run's command (rerun.py's, from `command.txt` or a launch line) and read
its output with readings.py, the code the script carries, so the value before the fix
(read here from the evidence) and the value after it (read by the script) are read alike.
A metric's expectation is never filled: what a right answer looks like is the user's to
say, so the script refuses (exit 2) until it is given.
"""

from __future__ import annotations

import re

from trainwreck.fixes.scripts.parameters import Context, Parameter
from trainwreck.fixes.scripts.readings import metric_in, rate_in, steady_rate
from trainwreck.fixes.scripts.rerun import TIMEOUT_SECONDS, command_parameter
from trainwreck.model import LogLine

# The smallest gain a slow-throughput page's guard counts as real: torch-compile-recompile-limit
# ("at least 10% faster after 100 warm-up steps") and transformers-sdpa-eager-fallback ("more
# than 10% slower than plain SDPA"); a smaller change is within what those pages call noise.
MIN_SPEEDUP = 1.1
# Enough for start-up, compilation and a steady run of rate readings; a run that prints its
# rate only when it ends (the HF Trainer's train_samples_per_second) needs it raised.
THROUGHPUT_SECONDS = 600.0
# A metric that judges an output: an evaluation split's (eval_, val_, test_) or a quality
# measure's name, followed by a number; bookkeeping (runtime, rates, epoch) is not one.
_EVALUATION = re.compile(
    r"(?<![\w.])['\"]?(?P<name>(?:eval|val|valid|validation|test)_[A-Za-z]\w*|\w*acc(?:uracy)?"
    r"|f1|bleu|rouge\w*|exact_match|perplexity|ppl|wer|cer)['\"]?(?:\s*[=:]\s*|\s+)['\"]?[-+]?\.?\d"
)
_BOOKKEEPING = re.compile(r"_(?:runtime|per_second|epoch|step)$")


def throughput_rerun_parameters(ctx: Context) -> list[Parameter]:
    """The slow run's command, its throughput before the fix, and the gain the fix must bring."""
    before = _throughput_before(ctx.evidence.lines)
    return [
        command_parameter(ctx, "the slow run's command"),
        *before,
        Parameter(
            "min_speedup",
            MIN_SPEEDUP,
            "the smallest gain the slow-throughput pages' guards count as real (10%: "
            "torch-compile-recompile-limit, transformers-sdpa-eager-fallback)",
        ),
        Parameter(
            "timeout_seconds",
            THROUGHPUT_SECONDS,
            f"{THROUGHPUT_SECONDS / 60:g} minutes of the run, then it is stopped and its rates "
            "read; raise it when your run prints its rate only at the end",
        ),
    ]


def _throughput_before(lines: tuple[LogLine, ...]) -> list[Parameter]:
    """throughput_before and unit: the steady rate in the unit the log prints most often."""
    by_unit: dict[str, list[tuple[float, LogLine]]] = {}
    for line in lines:
        reading = rate_in(line.text)
        if reading is not None:
            by_unit.setdefault(reading[0], []).append((reading[1], line))
    if not by_unit:
        measure = (
            "no throughput in the evidence: run this script on the run without the fix to "
            "measure it, then pass --throughput-before N --unit U"
        )
        return [
            Parameter("throughput_before", 0.0, measure),
            Parameter("unit", "", "the first unit the run's output prints (it/s, tokens/s, ...)"),
        ]
    unit, readings = max(by_unit.items(), key=lambda item: len(item[1]))
    rate = steady_rate([value for value, _ in readings])
    nearest = min(readings, key=lambda reading: abs(reading[0] - rate))[1]
    where = f"{nearest.source}:{nearest.line}"
    how = f"the median of {len(readings)} readings" if len(readings) > 1 else "its one reading"
    return [
        Parameter("throughput_before", round(rate, 6), f"{where}: {how} ({nearest.text.strip()})"),
        Parameter("unit", unit, f"{where}: the unit the log prints its rate in most often"),
    ]


def metric_rerun_parameters(ctx: Context) -> list[Parameter]:
    """The run's command, the metric its log judges the output by, and an empty expectation."""
    found = _last_evaluation(ctx.evidence.lines)
    if found is None:
        metric = Parameter(
            "metric",
            "",
            "the evidence prints no evaluation metric: give the one your run prints for the "
            "output that was wrong (--metric eval_accuracy)",
        )
        seen = ""
    else:
        name, value, line = found
        where = f"{line.source}:{line.line}"
        metric = Parameter("metric", name, f"{where}: the last evaluation metric the log prints")
        seen = f"; the log's last {name} was {value:g} ({where})"
    expect = Parameter(
        "expect",
        "",
        "never guessed: the value the fixed run must print, as an inequality "
        f"(--expect '>=0.9'){seen}",
    )
    return [
        command_parameter(ctx, "the command whose output was wrong"),
        metric,
        expect,
        Parameter(
            "timeout_seconds",
            TIMEOUT_SECONDS,
            f"{TIMEOUT_SECONDS / 60:g} minutes; raise it so the run reaches the evaluation "
            "that prints the metric",
        ),
    ]


def _last_evaluation(lines: tuple[LogLine, ...]) -> tuple[str, float, LogLine] | None:
    """The last evaluation metric the log prints: its name, its value there, and the line."""
    for line in reversed(lines):
        names = [
            found["name"]
            for found in _EVALUATION.finditer(line.text)
            if not _BOOKKEEPING.search(found["name"])
        ]
        for name in reversed(names):
            value = metric_in(name, line.text)
            if value is not None:
                return name, value, line
    return None
