"""What `trainwreck curves` prints (Markdown or JSON) and the charts the HTML report shows.

Input: each curve a run holds with its own findings, as `analyzers.curves.per_table`
returns them. Matplotlib is needed only for the charts and imported only then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from trainwreck.curves.figures import Figures
from trainwreck.curves.plot import PLOTS_MISSING, draw
from trainwreck.model import Diagnosis, Finding, MetricTable

Curves = Sequence[tuple[MetricTable, Sequence[Finding]]]
CURVE_FINDINGS = ("curves.", "loss.", "grad_norm.", "eval_loss.")
# A printed log rounds to 4 significant digits ("136.3" for 136.32128906): 1e-3 apart is equal.
SAME_VALUE_RTOL = 1e-3


def plots_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def has_curves(diagnosis: Diagnosis) -> bool:
    """Whether the run had a metric file or a curve finding: only then are its curves
    detected again, per history, to draw charts (the Diagnosis holds no curves)."""
    return any(f.kind == "metrics" for f in diagnosis.inputs) or any(
        f.id.startswith(CURVE_FINDINGS) for f in diagnosis.findings
    )


def figures(curves: Curves, reported: Sequence[Finding] = ()) -> Figures:
    """One chart per run, or the line saying how to get charts.

    Two files of one run (the Trainer's log and its trainer_state.json) are one chart:
    the file the report's findings cite, with those findings marked on it.
    """
    if not curves:
        return Figures()

    if not plots_available():
        return Figures(missing=PLOTS_MISSING)
    drawn = (draw(table, findings) for table, findings in _one_per_run(curves, reported))
    return Figures(items=tuple(figure for figure in drawn if figure is not None))


def _cites(finding: Finding, table: MetricTable) -> bool:
    return any(ref.source == table.source for ref in finding.evidence)


def _one_per_run(curves: Curves, reported: Sequence[Finding]) -> Curves:
    runs: list[list[tuple[MetricTable, Sequence[Finding]]]] = []
    for table, findings in curves:
        run = next((r for r in runs if _same_curves(table, r[0][0])), None)
        if run is None:
            runs.append([(table, findings)])
        else:
            run.append((table, findings))
    kept = []
    for run in runs:
        table, findings = max(run, key=lambda item: sum(_cites(f, item[0]) for f in reported))
        own = {f.id for f in findings}
        extra = [f for f in reported if _cites(f, table) and f.id not in own]
        kept.append((table, [*findings, *extra]))
    return kept


def _same_curves(table: MetricTable, other: MetricTable) -> bool:
    """Whether two tables hold one run's points: every series they share has the same
    number of points and the same values (a log prints them rounded, and may number its
    entries where the Trainer's file has the global step)."""
    shared = [name for name in table.series if name in other.series]
    return bool(shared) and all(
        len(table.series[n]) == len(other.series[n])
        and np.allclose(
            table.series[n].values, other.series[n].values, rtol=SAME_VALUE_RTOL, equal_nan=True
        )
        for n in shared
    )


def _series_line(table: MetricTable) -> str:
    parts = [
        f"{name} ({len(s)} points, steps {int(s.steps[0])}-{int(s.steps[-1])})"
        for name, s in table.series.items()
    ]
    return ", ".join(parts)


def _finding_markdown(finding: Finding) -> list[str]:
    lines = [f"- **{finding.title}** (`{finding.id}`): {finding.summary}"]
    if finding.arithmetic is not None:
        for line in finding.arithmetic.lines:
            unit = f" {line.unit}" if line.unit else ""
            lines.append(f"  - {line.label}: `{line.formula}` = {line.value}{unit} ({line.source})")
    return lines


def as_markdown(curves: Curves, plots: Sequence[str] = ()) -> str:
    """Per source: the series read, the notes on messy input, each finding with its arithmetic."""
    out: list[str] = []
    for table, findings in curves:
        out += [f"## {table.source}", "", f"Series: {_series_line(table)}", ""]
        out += [f"Note: {note}" for note in table.notes]
        if table.notes:
            out.append("")
        if findings:
            out += [line for finding in findings for line in _finding_markdown(finding)]
        else:
            out.append("No curve event found.")
        out.append("")
    out += [f"Plot written to {path}" for path in plots]
    return "\n".join(out).rstrip() + "\n"


def as_json(curves: Curves, plots: Sequence[str] = ()) -> str:
    """The same content for programs; finding objects as in `diagnose --format json`."""
    sources = [
        {
            "source": table.source,
            "series": {
                name: {
                    "points": len(s),
                    "first_step": int(s.steps[0]),
                    "last_step": int(s.steps[-1]),
                }
                for name, s in table.series.items()
            },
            "info": dict(table.info),
            "notes": list(table.notes),
            "findings": [finding.model_dump(mode="json") for finding in findings],
        }
        for table, findings in curves
    ]
    return json.dumps({"sources": sources, "plots": list(plots)}, indent=2) + "\n"


def plot_paths(target: str, count: int) -> list[str]:
    """`out.svg` for the first chart, then `out.2.svg`, `out.3.svg`, ... for more sources."""
    stem, dot, ext = target.rpartition(".")
    if not dot:
        stem, ext = target, "svg"
    return [target, *(f"{stem}.{i}.{ext}" for i in range(2, count + 1))]
