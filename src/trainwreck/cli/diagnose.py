"""`trainwreck diagnose`: the report on a failed run, and the patch and script it can write."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from trainwreck.analyzers.curves import per_table
from trainwreck.cases import load_memory
from trainwreck.cases.local import default_path, read
from trainwreck.cli.output import emit, spinner
from trainwreck.curves.report import figures as draw_figures
from trainwreck.curves.report import has_curves
from trainwreck.errors import UsageError
from trainwreck.fixes.patch import write_patch
from trainwreck.model import Diagnosis
from trainwreck.pipeline import examine
from trainwreck.redact import redact
from trainwreck.report import render
from trainwreck.write import is_input, write_file

FORMATS = ("markdown", "json", "html")


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--symptoms", "-s", help="What you saw, in words (e.g. 'hangs after 2h on 16 GPUs').")
@click.option(
    "--config",
    "config_files",
    multiple=True,
    metavar="FILE",
    help="A training/launch config (JSON, YAML, TOML). Repeatable.",
)
@click.option(
    "--env",
    "env_files",
    multiple=True,
    metavar="FILE",
    help="An environment listing: pip freeze/list, conda list, collect_env, nvidia-smi. "
    "Give two (the working environment first) to compare versions.",
)
@click.option(
    "--model-config",
    "model_config_files",
    multiple=True,
    metavar="FILE",
    help="A Hugging Face model config.json.",
)
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(FORMATS),
    default="markdown",
    show_default=True,
    help="Report format.",
)
@click.option(
    "--full",
    is_flag=True,
    help="Markdown: every section (mechanism, arithmetic, each alternative's check, similar "
    "failures, prevention, warnings). Without it the top answer fits one screen. "
    "JSON and HTML always carry everything.",
)
@click.option("--output", "-o", metavar="FILE", help="Write the report to FILE instead of stdout.")
@click.option(
    "--script",
    "script_path",
    metavar="OUT.py",
    help="Write the top hypothesis's verification script (exit 0 once the fix works) to OUT.py.",
)
@click.option(
    "--patch",
    "patch_dir",
    metavar="DIR",
    help="Write patched copies of your config files and changes.diff into DIR (never in place).",
)
@click.option("--force", is_flag=True, help="Overwrite files that --script or --patch would write.")
@click.option(
    "--no-cases",
    is_flag=True,
    help="Do not use the case memory (confirmed failures from public threads, and the "
    "team's store that `trainwreck learn` fills): no similar failures are shown, and the "
    "symptoms are searched in the pages' own text only.",
)
def diagnose(
    paths: tuple[str, ...],
    symptoms: str | None,
    config_files: tuple[str, ...],
    env_files: tuple[str, ...],
    model_config_files: tuple[str, ...],
    fmt: str,
    full: bool,
    output: str | None,
    script_path: str | None,
    patch_dir: str | None,
    force: bool,
    no_cases: bool,
) -> None:
    """Diagnose a failed run from PATHS: log files, run directories, or - for stdin.

    \b
    Examples:
      trainwreck diagnose train.log
      trainwreck diagnose train.log --full
      trainwreck diagnose runs/llama-qlora-0412/
      python train.py 2>&1 | trainwreck diagnose -
      trainwreck diagnose rank*.log --symptoms "hangs after ~2h on 16 GPUs"
      trainwreck diagnose train.log --format json | jq .hypotheses[0]
      trainwreck diagnose train.log --format html -o report.html
      trainwreck diagnose train.log --script verify.py && python verify.py
    """
    if not paths and not symptoms and not config_files and not env_files and not sys.stdin.isatty():
        paths = ("-",)
    if not (paths or symptoms or config_files or env_files or model_config_files):
        raise UsageError("nothing to diagnose: give a log file, a run directory, '-' or --symptoms")
    inputs = (*paths, *config_files, *env_files, *model_config_files)
    for target in (output, script_path):
        if target and is_input(target, inputs):
            raise UsageError(f"{target} is one of your input files; choose another output")
    if script_path and os.path.lexists(script_path) and not force:
        raise UsageError(f"{script_path} exists; pass --force to overwrite it")
    with spinner("Reading evidence and matching the knowledge base..."):
        evidence, diagnosis = examine(
            paths,
            symptoms=symptoms,
            config_files=config_files,
            env_files=env_files,
            model_config_files=model_config_files,
            stdin=sys.stdin.buffer,
            cases=load_memory(() if no_cases else read(default_path()), bundled=not no_cases),
        )
    if patch_dir:
        _write_patch(diagnosis, Path(patch_dir), force)
    figures = None
    if fmt == "html" and has_curves(diagnosis):  # charts need the curves the Diagnosis omits
        figures = draw_figures(per_table(evidence), diagnosis.findings)
    report = render(diagnosis, fmt, figures, full=full)  # type: ignore[arg-type]
    emit(report, output, markdown=fmt == "markdown", inputs=inputs)
    if script_path:
        _write_script(diagnosis, Path(script_path), force, inputs)


def _write_patch(diagnosis: Diagnosis, directory: Path, force: bool) -> None:
    result = write_patch(diagnosis, directory, force=force)
    if result.diff is None:
        click.echo(
            "trainwreck: the fix changes no setting your files hold; nothing patched", err=True
        )
    else:
        click.echo(
            f"trainwreck: wrote {len(result.copies)} patched file(s) and {result.diff}", err=True
        )
    if result.redacted:
        click.echo(
            "trainwreck: secrets in your files are <redacted:...> placeholders in the copies; "
            "put them back before using a copy",
            err=True,
        )


def _write_script(diagnosis: Diagnosis, path: Path, force: bool, inputs: Sequence[str]) -> None:
    """Write the top hypothesis's verification script, or say why there is none."""
    top = diagnosis.hypotheses[0] if diagnosis.hypotheses else None
    if top is None or top.verification is None:
        what = f"a {top.category} hypothesis" if top else "a diagnosis with no hypothesis"
        click.echo(f"trainwreck: no verification script for {what}; {path} not written", err=True)
        return
    write_file(path, redact(top.verification.script), replace=force, inputs=inputs)
    click.echo(f"trainwreck: wrote {path} ({top.verification.kind}); run: python {path}", err=True)
