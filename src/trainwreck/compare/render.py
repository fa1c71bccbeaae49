"""A comparison as Markdown (for people) or JSON (for CI and other tools); pure functions."""

from __future__ import annotations

import json
from typing import Any

from trainwreck.compare.model import Comparison, Departure, Value
from trainwreck.redact import redact, redact_data


def _shown(value: Value) -> str:
    return "(absent)" if value is None else json.dumps(value)


def _curve(departure: Departure) -> dict[str, Any]:
    arithmetic = departure.arithmetic
    return {
        "compared_steps": departure.compared_steps,
        "left_band_at_step": departure.step,
        "direction": departure.direction,
        "arithmetic": arithmetic.model_dump(mode="json") if arithmetic else None,
    }


def to_json(comparison: Comparison) -> str:
    """`{"changes": [...ranked], "curves": {metric: ...}, "gaps": [...]}`."""
    data = {
        "changes": [
            {
                "kind": change.kind,
                "key": change.key,
                "before": change.before,
                "after": change.after,
                "score": change.score,
                "pages": list(change.pages),
                "why": change.why,
            }
            for change in comparison.changes
        ],
        "curves": {item.metric: _curve(item) for item in comparison.curves},
        "gaps": list(comparison.gaps),
    }
    return json.dumps(redact_data(data), indent=2)


def to_markdown(comparison: Comparison) -> str:
    """The ranked changes as a table, then where each curve leaves GOOD's band."""
    lines = ["# What changed from GOOD to BAD", ""]
    if comparison.changes:
        lines += [
            "| # | kind | key | GOOD -> BAD | score | pages | why |",
            "|---|---|---|---|---|---|---|",
        ]
        for number, change in enumerate(comparison.changes, 1):
            pages = ", ".join(f"kb:{page}" for page in change.pages) or "-"
            lines.append(
                f"| {number} | {change.kind} | `{change.key}` | {_shown(change.before)} -> "
                f"{_shown(change.after)} | {change.score:.3f} | {pages} | {change.why} |"
            )
    else:
        lines.append("No package, machine, config or command-line difference was found.")
    lines += ["", "## Curves", ""]
    for item in comparison.curves:
        if item.arithmetic is None:
            lines.append(f"- {item.metric}: BAD stays in GOOD's band ({item.compared_steps} steps)")
            continue
        lines.append(f"- {item.arithmetic.title} ({item.direction}): {item.arithmetic.result}")
        lines += [
            f"  - {line.label} = {line.value} ({line.formula}; {line.source})"
            for line in item.arithmetic.lines
        ]
    if not comparison.curves:
        lines.append("No metric both runs logged.")
    if comparison.gaps:
        lines += ["", "## Not read", "", *(f"- {gap}" for gap in comparison.gaps)]
    return redact("\n".join(lines) + "\n")
