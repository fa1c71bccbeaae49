"""How a run's output prints its throughput and its metrics, read alike before and after a fix.

The diagnosis reads the slow run's throughput and the wrong run's metric from the evidence
with these functions, and the rerun scripts carry the same code to read the fixed run's
output: render.py pastes this module's source after its imports into them (a script cannot
import trainwreck), so a before and an after are never read by two different parsers. It
must therefore stay standard-library only, with imports the rerun templates also make.
The curves readers do not fit here: they keep per-log state (steps, units) across lines
and live in trainwreck.
"""

from __future__ import annotations

import re
import statistics

# A printed number: 12, 0.5, 1.2e3. Rates and metrics are read as printed (`97.5%` is 97.5).
READ_NUMBER = r"(?P<value>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
# How logs print a throughput: (unit, regex). The first row that matches a line reads it; a
# `{unit}` in the unit is filled from the regex's `unit` group; a unit of `s/...` is a time per
# item (tqdm below one item a second) and is read inverted, as items per second.
RATES = (
    # Megatron-LM's iteration line
    ("TFLOP/s/GPU", r"throughput per GPU \(TFLOP/s/GPU\): " + READ_NUMBER),
    # the HF Trainer's summary and eval dicts: {'train_samples_per_second': 12.5, ...}
    ("{unit}/s", r"['\"](?P<unit>\w+?)_per_second['\"]\s*:\s*['\"]?" + READ_NUMBER),
    # vLLM's metrics line: "Avg prompt throughput: ..., Avg generation throughput: 55.1 tokens/s"
    ("generation tokens/s", r"generation throughput: " + READ_NUMBER + r" tokens/s"),
    # vLLM's benchmark_throughput: "Throughput: 4.52 requests/s, 2314.17 total tokens/s, ..."
    ("requests/s", r"Throughput: " + READ_NUMBER + r" requests/s"),
    # a tqdm bar's rate: "[00:05<00:45,  2.00it/s]", "[29:55<4:48:08, 155.57 examples/s, loss=1]"
    ("{unit}/s", r"<[\d:?]+,\s*" + READ_NUMBER + r"\s?(?P<unit>[A-Za-z]+)/s[\],]"),
    ("s/{unit}", r"<[\d:?]+,\s*" + READ_NUMBER + r"\s?s/(?P<unit>[A-Za-z]+)[\],]"),
    # any other "1234.5 tokens/s", "300 samples/sec"
    (
        "{unit}/s",
        READ_NUMBER + r"\s?(?P<unit>tokens|samples|examples|images|sequences|steps)/s(?:ec)?\b",
    ),
)


def rate_in(line: str) -> tuple[str, float] | None:
    """The throughput a line prints, as (unit, items per second), or None."""
    for unit, regex in RATES:
        found = re.search(regex, line)
        if found is None:
            continue
        value = float(found.group("value"))
        named = unit.format(unit=found.groupdict().get("unit") or "")
        if named.startswith("s/"):  # seconds per item: 1.52 s/it is 0.66 it/s
            return (named[2:] + "/s", 1.0 / value) if value > 0 else None
        return named, value
    return None


def rates_by_unit(lines: list[str]) -> dict[str, list[float]]:
    """Every throughput the lines print, grouped by unit, in the order printed."""
    rates: dict[str, list[float]] = {}
    for line in lines:
        reading = rate_in(line)
        if reading is not None:
            rates.setdefault(reading[0], []).append(reading[1])
    return rates


def steady_rate(values: list[float]) -> float:
    """The rate a run holds: the median of its readings, so the slow first steps (start-up,
    compilation) and a single stalled one do not decide it."""
    return float(statistics.median(values))


def metric_in(metric: str, line: str) -> float | None:
    """The last value a line prints for `metric`: in an HF dict (`'eval_accuracy': 0.91`, or
    quoted), as `key=value`, `key: value` or `key value`; None when the line has none."""
    pattern = (
        r"(?<![\w.])['\"]?" + re.escape(metric) + r"['\"]?(?:\s*[=:]\s*|\s+)['\"]?(?:tensor\()?"
    )
    values = [found.group("value") for found in re.finditer(pattern + READ_NUMBER, line)]
    return float(values[-1]) if values else None
