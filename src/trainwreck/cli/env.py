"""`trainwreck env`: an environment's conflicting requirements, mismatched builds and known bugs."""

from __future__ import annotations

import sys

import click

from trainwreck.cli.output import emit
from trainwreck.env.report import as_json, build_report, text


@click.command("env")
@click.option(
    "--from",
    "from_files",
    multiple=True,
    metavar="FILE",
    help="A captured listing instead of this interpreter: pip freeze/list, conda list, "
    "uv pip list, collect_env, nvidia-smi, nvcc --version ('-' for stdin). Repeatable.",
)
@click.option(
    "--torch", "with_torch", is_flag=True, help="Also import torch for its CUDA/cuDNN/NCCL."
)
@click.option(
    "--log",
    "log_files",
    multiple=True,
    metavar="FILE",
    help="Trace ABI errors in a log. Repeatable.",
)
@click.option(
    "--site-packages",
    "site_packages",
    multiple=True,
    metavar="DIR",
    help="Read another environment's site-packages instead of this interpreter's.",
)
@click.option("--packages", "list_packages", is_flag=True, help="List every package too.")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True
)
def env_command(
    from_files: tuple[str, ...],
    site_packages: tuple[str, ...],
    with_torch: bool,
    log_files: tuple[str, ...],
    list_packages: bool,
    fmt: str,
) -> None:
    """Check an environment: conflicting requirements, mismatched builds, known bugs.

    Exit status 1 when a conflict is an error (like `pip check`).

    \b
    Examples:
      trainwreck env
      trainwreck env --torch
      pip freeze > env.txt; trainwreck env --from env.txt --from nvidia-smi.txt
      trainwreck env --from env.txt --log train.log --format json
      trainwreck env --site-packages ~/venvs/train/lib/python3.11/site-packages
    """
    report = build_report(from_files, log_files, with_torch=with_torch, site_packages=site_packages)
    emit(as_json(report) if fmt == "json" else text(report, list_packages), None)
    if report.errors:
        sys.exit(1)
