"""`trainwreck triage`: a fleet's failed runs grouped by cause, from the command line.

A thin shell over `trainwreck.triage` (loaded only when the command runs).
"""

from __future__ import annotations

import click

from trainwreck.cli_output import emit
from trainwreck.errors import UsageError


@click.command("triage")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--jobs", "-j", type=int, metavar="N", help="Processes (default: all cores; 1 runs in process)."
)
@click.option(
    "--baseline",
    metavar="PREVIOUS.json",
    help="A previous `triage --format json`: groups it lacks are flagged new.",
)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(("md", "json")), default="md", show_default=True
)
@click.option("--output", "-o", metavar="FILE", help="Write the report to FILE instead of stdout.")
def triage_command(
    paths: tuple[str, ...], jobs: int | None, baseline: str | None, fmt: str, output: str | None
) -> None:
    """Diagnose every run under PATHS (run folders or log files) and group them by cause.

    A folder holding files is one run; a folder holding only folders is searched for runs.

    \b
    Examples:
      trainwreck triage /shared/jobs/2024-06-*/
      trainwreck triage jobs/ --format json -o today.json
      trainwreck triage jobs/ --baseline yesterday.json
    """
    from trainwreck.triage import triage
    from trainwreck.triage.baseline import read_baseline
    from trainwreck.triage.render import to_json, to_markdown

    if jobs is not None and jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    known = read_baseline(baseline) if baseline else None
    result = triage(paths, jobs=jobs, baseline=known)
    if result.runs == 0:
        raise UsageError(f"no runs found under {', '.join(paths)}")
    report = to_json(result) if fmt == "json" else to_markdown(result)
    emit(report, output, markdown=fmt == "md", inputs=paths)
