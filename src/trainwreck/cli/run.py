"""`trainwreck run`: record a command's run, and diagnose it when it fails.

A thin shell over `recorder.run.record`; the
diagnosis is the one `trainwreck diagnose DIR` makes of the run directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from trainwreck.cases import load_memory
from trainwreck.cases.local import default_path, read
from trainwreck.cli.output import emit
from trainwreck.errors import TrainwreckError
from trainwreck.pipeline import diagnose
from trainwreck.recorder.run import record
from trainwreck.redact import redact
from trainwreck.report import render


@click.command(
    "run", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False}
)
@click.option(
    "--out",
    metavar="DIR",
    help="The run directory (default: trainwreck-runs/<UTC time>).",
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def run_command(out: str | None, command: tuple[str, ...]) -> None:
    """Run COMMAND, record its output, environment, git state and configs, and on a
    failure print the diagnosis. Exits with COMMAND's status (128 + N for signal N).

    \b
    Examples:
      trainwreck run -- python train.py --config config.yaml
      trainwreck run --out runs/try3 -- torchrun --nproc-per-node 8 --tee 3 train.py
      trainwreck diagnose runs/try3
    """
    recorded = record(command, Path(out) if out else None)
    click.echo(f"trainwreck: recorded in {recorded.directory}", err=True)
    if recorded.status != 0:
        try:
            diagnosis = diagnose([str(recorded.directory)], cases=load_memory(read(default_path())))
        except TrainwreckError as error:  # the command's status matters more than ours
            click.echo(f"trainwreck: no diagnosis: {redact(str(error))}", err=True)
        else:
            emit(render(diagnosis, "markdown"), None, markdown=True)
    sys.exit(recorded.status)
