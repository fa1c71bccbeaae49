"""`trainwreck compare GOOD BAD`: what changed between two runs, ranked, with a CI gate.

A thin shell over `trainwreck.compare`. Exit status: 0, or 1 when `--fail-on` names a
kind of change that was found; bad input is one line and exit 2 (cli.main).
"""

from __future__ import annotations

import sys

import click

from trainwreck.cli.output import emit
from trainwreck.compare import compare
from trainwreck.compare.render import to_json, to_markdown

FORMATS = ("md", "json")
FAIL_KINDS = ("package", "machine", "config", "flag", "curve")


def _kinds(values: tuple[str, ...]) -> set[str]:
    """`--fail-on package,config --fail-on flag` -> {package, config, flag}; unknown: refused."""
    kinds = {kind.strip() for value in values for kind in value.split(",") if kind.strip()}
    unknown = sorted(kinds - set(FAIL_KINDS))
    if unknown:
        raise click.UsageError(
            f"--fail-on: unknown kind {', '.join(unknown)} (choose from {', '.join(FAIL_KINDS)})"
        )
    return kinds


@click.command("compare")
@click.argument("good")
@click.argument("bad")
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="md", show_default=True)
@click.option(
    "--fail-on",
    "fail_on",
    multiple=True,
    metavar="KIND[,KIND]",
    help=f"Exit 1 when a change of these kinds is found ({', '.join(FAIL_KINDS)}; "
    "curve: BAD's curve leaves GOOD's band).",
)
def compare_command(good: str, bad: str, fmt: str, fail_on: tuple[str, ...]) -> None:
    """What changed from GOOD (a run that worked) to BAD (one that broke): packages, machine,
    config keys, command-line flags and curves, ranked by what the knowledge base knows
    each can cause.

    \b
    Examples:
      trainwreck compare runs/monday runs/tuesday
      trainwreck compare runs/good runs/bad --format json | jq '.changes[0]'
      trainwreck compare runs/good runs/bad --fail-on package,config
    """
    kinds = _kinds(fail_on)
    comparison = compare([good], [bad])
    report = to_json(comparison) if fmt == "json" else to_markdown(comparison)
    emit(report, None, markdown=fmt == "md", inputs=(good, bad))
    found: set[str] = {change.kind for change in comparison.changes}
    if any(item.step is not None for item in comparison.curves):
        found.add("curve")
    if kinds & found:
        sys.exit(1)
