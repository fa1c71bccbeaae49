"""`trainwreck curves`: the events in a run's metric curves, and their plots."""

from __future__ import annotations

import os

import click

from trainwreck.analyzers import KEEP
from trainwreck.analyzers.curves import per_table
from trainwreck.cli.output import emit, markdown_or_json
from trainwreck.curves.plot import PLOTS_MISSING
from trainwreck.curves.report import as_json, as_markdown, figures, plot_paths, plots_available
from trainwreck.errors import UsageError, why_not_read
from trainwreck.evidence.collect import collect
from trainwreck.model import Finding, MetricTable
from trainwreck.redact import redact


def curve_results(
    paths: tuple[str, ...], config_files: tuple[str, ...] = ()
) -> list[tuple[MetricTable, list[Finding]]]:
    """Each metric history in PATHS with its findings (no knowledge base needed).

    Raises UsageError when there is none, with the first reason a file was skipped.
    """
    evidence = collect(paths, config_files=config_files, keep=KEEP)
    results = per_table(evidence)
    if not results:
        why = f" ({evidence.gaps[0].source}: {evidence.gaps[0].reason})" if evidence.gaps else ""
        raise UsageError(f"no metric history found in {', '.join(paths)}{why}")
    return results


@click.command("curves")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--config",
    "config_files",
    multiple=True,
    metavar="FILE",
    help="A training config, for warmup and batch-size facts. Repeatable.",
)
@click.option(
    "--plot",
    "plot_target",
    metavar="OUT.svg",
    help="Also draw each history as SVG (a second source goes to OUT.2.svg, ...).",
)
@markdown_or_json
def curves(
    paths: tuple[str, ...], config_files: tuple[str, ...], plot_target: str | None, fmt: str
) -> None:
    """Find the events in a run's metric curves: NaN onset, spikes, divergence, plateaus.

    PATHS: trainer_state.json, JSONL/CSV metric files, MLflow or TensorBoard runs,
    training logs, or a run directory holding them.

    \b
    Examples:
      trainwreck curves output/checkpoint-500/trainer_state.json
      trainwreck curves runs/exp1/ --plot exp1.svg
      trainwreck curves metrics.jsonl --format json
    """
    if "-" in paths:
        raise UsageError("curves reads files and directories, not stdin")
    for path in paths:
        try:  # a file in a folder we may not search is unreadable, not missing
            os.stat(path)
        except (OSError, ValueError) as error:
            raise UsageError(f"{path}: {why_not_read(error)}") from None
    if plot_target and not plots_available():
        raise UsageError(PLOTS_MISSING)
    results = curve_results(paths, config_files)
    written: list[str] = []
    if plot_target:
        drawn = figures(results).items
        for target, figure in zip(plot_paths(plot_target, len(drawn)), drawn, strict=True):
            emit(figure.svg, target, inputs=(*paths, *config_files))
            written.append(target)
    text = as_json(results, written) if fmt == "json" else as_markdown(results, written)
    emit(redact(text), None, markdown=fmt == "markdown")
