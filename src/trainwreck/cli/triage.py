"""`trainwreck triage`: a fleet's failed runs grouped by cause, from the command line.

A thin shell over `trainwreck.triage`; Ray (an extra) is imported only for `--engine ray`.
"""

from __future__ import annotations

from functools import partial

import click

from trainwreck.cli.output import emit
from trainwreck.errors import UsageError
from trainwreck.triage import triage
from trainwreck.triage.baseline import read_baseline
from trainwreck.triage.render import to_json, to_markdown


@click.command("triage")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--jobs", "-j", type=int, metavar="N", help="Processes (default: all cores; 1 runs in process)."
)
@click.option(
    "--engine",
    type=click.Choice(("pool", "ray")),
    default="pool",
    show_default=True,
    help="pool: local processes; ray: Ray tasks (pip install 'trainwreck[ray]').",
)
@click.option(
    "--ray-address",
    metavar="ADDR",
    help=(
        "With --engine ray: the cluster to join "
        "(default: $RAY_ADDRESS, a Ray running here, else a new local one)."
    ),
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
    paths: tuple[str, ...],
    jobs: int | None,
    engine: str,
    ray_address: str | None,
    baseline: str | None,
    fmt: str,
    output: str | None,
) -> None:
    """Diagnose every run under PATHS (run folders or log files) and group them by cause.

    A folder holding files is one run; a folder holding only folders is searched for runs.

    \b
    Examples:
      trainwreck triage /shared/jobs/2024-06-*/
      trainwreck triage jobs/ --format json -o today.json
      trainwreck triage jobs/ --baseline yesterday.json
      trainwreck triage /mnt/shared/jobs/ --engine ray --ray-address auto
    """
    if jobs is not None and jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    if engine == "ray" and jobs is not None:
        raise UsageError("--jobs sizes the process pool; Ray uses the cluster's CPUs")
    if engine != "ray" and ray_address is not None:
        raise UsageError("--ray-address needs --engine ray")
    known = read_baseline(baseline) if baseline else None
    run_all = None
    if engine == "ray":
        try:
            from trainwreck.triage.ray_engine import ray_summaries
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] != "ray":
                raise
            raise UsageError("--engine ray needs Ray: pip install 'trainwreck[ray]'") from None
        run_all = partial(ray_summaries, address=ray_address)
    result = triage(paths, jobs=jobs, baseline=known, engine=run_all)
    if result.runs == 0:
        raise UsageError(f"no runs found under {', '.join(paths)}")
    report = to_json(result) if fmt == "json" else to_markdown(result)
    emit(report, output, markdown=fmt == "md", inputs=paths)
