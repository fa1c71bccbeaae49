"""The values a verification script is filled with, each with where it came from.

A script's parameters become a `PARAMETERS` dict at its top (one comment per value
naming its source) and one command-line flag each, so a user can correct any
value trainwreck read or assumed without editing the script.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trainwreck.analyzers.curves import curve_tables
from trainwreck.model import Evidence, Finding, Hypothesis, Scalar

ParameterValue = str | int | float | bool
# A value found in the evidence and where: (value, "train.yaml: learning_rate").
Found = tuple[Scalar, str] | None


@dataclass(frozen=True)
class Parameter:
    """One filled value: `name` becomes the flag `--name` (underscores as dashes)."""

    name: str
    value: ParameterValue
    source: str


@dataclass(frozen=True)
class Context:
    """What a script builder reads: the hypothesis, the evidence and the findings."""

    hypothesis: Hypothesis
    evidence: Evidence
    findings: tuple[Finding, ...]

    def config_value(self, *leaves: str) -> Found:
        """The user's value for the first of `leaves` any config sets, with its source."""
        for leaf in leaves:
            for config in self.evidence.configs:
                for key, value in config.values.items():
                    if _leaf(key) != leaf:
                        continue
                    if isinstance(value, str | int | float | bool):
                        return value, f"{config.source}: {key}"
        return None

    def change(self, *leaves: str) -> Found:
        """The new value a fix of this hypothesis sets for the first matching key."""
        return fix_change(self.hypothesis, *leaves)

    def logged_peak(self, metric: str) -> Found:
        """The largest finite value a metric was logged at (a schedule's peak learning
        rate), from the first curve that logged it."""
        for table in curve_tables(self.evidence):
            series = table.series.get(metric)
            finite = [float(v) for v in series.values if math.isfinite(v)] if series else []
            if finite:
                where = f"the peak over {len(finite)} steps"
                return max(finite), f"{table.source}: {metric} as logged ({where})"
        return None

    def finding_value(self, finding_id: str, key: str) -> Found:
        """A value an analyzer computed (e.g. the memory budget), with the finding named."""
        for finding in self.findings:
            value = finding.values.get(key)
            if finding.id == finding_id and value is not None:
                return value, f"finding {finding_id}: {key}"
        return None


def fix_change(hypothesis: Hypothesis, *leaves: str) -> Found:
    """The new value a fix of `hypothesis` sets for the first of `leaves` it changes."""
    for leaf in leaves:
        for fix in hypothesis.fixes:
            for change in fix.changes:
                if _leaf(change.path) == leaf and isinstance(
                    change.after, str | int | float | bool
                ):
                    return change.after, f"fix: {change.path} → {change.after}"
    return None


def _leaf(path: str) -> str:
    """The key a path ends in: `cli.vllm serve --max-num-seqs` and `a.max_num_seqs` alike."""
    return path.replace("-", "_").rsplit(".", 1)[-1].split()[-1].lstrip("_")


def first(*candidates: Found) -> Found:
    """The first candidate that was found."""
    return next((found for found in candidates if found is not None), None)


def pick(name: str, found: Found, default: str | int | float | bool, why: str) -> Parameter:
    """The found value as the default's type, else the default marked [assumed]."""
    value = None if found is None else _coerce(found[0], default)
    if found is not None and value is not None:
        return Parameter(name, value, found[1])
    return Parameter(name, default, f"[assumed] {why}")


def _coerce(value: object, like: str | int | float | bool) -> str | int | float | bool | None:
    """`value` as the type of `like` (a YAML "3e-4" string as a float), or None."""
    if isinstance(like, bool) or isinstance(value, bool):
        return value if isinstance(value, bool) and isinstance(like, bool) else None
    if isinstance(like, str):
        return value if isinstance(value, str) else None
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int past float's range
        return None
    if not math.isfinite(number):
        return None
    if isinstance(like, int):
        return int(number) if number.is_integer() else None
    return number


def render(parameters: list[Parameter]) -> str:
    """The `PARAMETERS` block: each value as a Python literal under a comment with its source."""
    lines = [
        "# Filled by trainwreck from the evidence; every value has a flag (--name) to override it.",
        "PARAMETERS = {",
    ]
    for parameter in parameters:
        lines.append(f"    # {_one_line(parameter.source)}")
        lines.append(f"    {parameter.name!r}: {parameter.value!r},")
    lines.append("}")
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(text.split())
