"""The command line: parse, call the library, render, exit.

Exit status: 0 when a report was produced (an ungrounded one too), 1 when
`kb lint` finds problems, 2 for bad usage or input, with one line on stderr,
3 for an internal error (a bug in trainwreck, never the input's fault).
Rich is used only when stdout is a terminal; piped output is plain text.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from trainwreck import cli_answer as answer_commands
from trainwreck import cli_cases as case_commands
from trainwreck import cli_compare as compare_commands
from trainwreck import cli_run as run_commands
from trainwreck import cli_tools as tool_commands
from trainwreck import cli_triage as triage_commands
from trainwreck.cli_output import emit, spinner
from trainwreck.errors import TrainwreckError, UsageError, internal_error
from trainwreck.redact import redact
from trainwreck.version import __version__
from trainwreck.write import is_input, write_file

if TYPE_CHECKING:
    from trainwreck.model import Diagnosis
from trainwreck.mcp_server.command import mcp_command

FORMATS = ("markdown", "json", "html")
INTERNAL_ERROR = 3  # exit status of a bug of ours, distinct from bad input (2)


def _fail(message: str, status: int = 2) -> NoReturn:
    click.echo(f"trainwreck: error: {redact(message)}", err=True)  # it may quote evidence
    sys.exit(status)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="trainwreck")
def cli() -> None:
    """Find the root cause of a broken machine-learning run.

    Point `trainwreck diagnose` at what the run left behind (logs, a run
    directory, a piped traceback) and get what broke, why, the arithmetic
    that shows it, and the least destructive fix, each with its source.

    \b
    Exit status:
      0  a report was produced (inputs that could not be read are warnings in it)
      1  `check`, `env` or `kb lint` found errors
      2  bad usage, or nothing usable could be read (one line on stderr)
      3  an internal error: a bug in trainwreck (one line; please report it)
    """


@cli.command()
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
    help="Do not search the case memory (confirmed failures from public threads, and the "
    "team's store that `trainwreck learn` fills).",
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
    from trainwreck.cases import load_memory
    from trainwreck.cases.local import default_path, read
    from trainwreck.pipeline import examine
    from trainwreck.report import render

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
    if fmt == "html":  # charts need the curves, which the Diagnosis omits
        from trainwreck.curves.report import figures as draw_figures
        from trainwreck.curves.report import has_curves

        if has_curves(diagnosis):
            from trainwreck.analyzers.curves import per_table

            figures = draw_figures(per_table(evidence), diagnosis.findings)
    report = render(diagnosis, fmt, figures, full=full)  # type: ignore[arg-type]
    emit(report, output, markdown=fmt == "markdown", inputs=inputs)
    if script_path:
        _write_script(diagnosis, Path(script_path), force, inputs)


def _write_patch(diagnosis: Diagnosis, directory: Path, force: bool) -> None:
    from trainwreck.fixes.patch import write_patch

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


@cli.group()
def kb() -> None:
    """Browse and check the knowledge base of failure patterns."""


@kb.command("list")
@click.option("--category", "-c", help="Only this category (oom, crash, hang, ...).")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True
)
def kb_list(category: str | None, fmt: str) -> None:
    """List every pattern: id, category, frameworks, title."""
    from trainwreck.kb import load
    from trainwreck.kb.page import summary_row

    patterns = [p for p in load().patterns if category in (None, p.category)]
    if fmt == "json":
        click.echo(json.dumps([summary_row(p) for p in patterns], indent=2))
        return
    for pattern in patterns:
        click.echo(f"{pattern.id:<44} {pattern.category:<20} {pattern.title}")
    click.echo(f"{len(patterns)} patterns")


@kb.command("show")
@click.argument("page_id")
def kb_show(page_id: str) -> None:
    """Show one pattern page in full (PAGE_ID as in `kb:PAGE_ID`)."""
    from trainwreck.kb import load
    from trainwreck.kb.page import to_markdown

    pattern = load().get(page_id)
    if pattern is None:
        raise UsageError(f"no knowledge-base page {page_id!r} (see `trainwreck kb list`)")
    emit(to_markdown(pattern), None, markdown=True)


@kb.command("search")
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", default=10, show_default=True)
def kb_search(query: tuple[str, ...], limit: int) -> None:
    """Full-text search over pattern pages (title, cause, mechanism, fixes)."""
    from trainwreck.kb import load
    from trainwreck.kb.search import search

    hits = search(load(), " ".join(query), limit)
    for hit in hits:
        click.echo(f"{hit.score:5.2f}  {hit.pattern.id:<44} {hit.pattern.title}")
    if not hits:
        click.echo("no matching pages")


@kb.command("lint")
@click.option(
    "--root",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="Where example case paths (tests/cases/...) resolve; skipped if absent.",
)
def kb_lint(root: str) -> None:
    """Check every pattern: schema, pinned citations, examples, real cases rank first."""
    from trainwreck.curation.lint import lint
    from trainwreck.kb import PATTERNS_DIR

    cases_root = Path(root)
    has_cases = (cases_root / "tests" / "cases").is_dir()
    if not has_cases:
        click.echo(f"note: no tests/cases under {root}; real-case checks skipped", err=True)
    knowledge, problems = lint(PATTERNS_DIR, cases_root if has_cases else None)
    for problem in problems:
        click.echo(problem)
    count = len(knowledge.patterns) if knowledge else 0
    click.echo(f"{count} patterns, {len(problems)} problem(s)")
    if problems:
        sys.exit(1)


@cli.command()
def version() -> None:
    """Print the trainwreck and knowledge-base versions."""
    from trainwreck.kb import load

    click.echo(f"trainwreck {__version__} (kb {load().version})")


for _command in (
    tool_commands.memory,
    tool_commands.check,
    tool_commands.env_command,
    tool_commands.curves,
    tool_commands.checkpoints,
    case_commands.learn,
    case_commands.cases,
    run_commands.run_command,
    triage_commands.triage_command,
    compare_commands.compare_command,
    answer_commands.check_answer_command,
    mcp_command,
):
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: turn every expected error into one line and exit status 2."""
    try:
        cli.main(args=argv, prog_name="trainwreck", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        _fail("aborted", 130)
    except click.UsageError as exc:
        _fail(exc.format_message().splitlines()[0])
    except TrainwreckError as exc:
        _fail(str(exc))
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
    except Exception as exc:  # the last resort: one line and exit 3, never a traceback
        if os.environ.get("TRAINWRECK_DEBUG"):
            raise
        _fail(internal_error(exc), INTERNAL_ERROR)
