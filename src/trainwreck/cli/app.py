"""The command line's Click group: parse, call the library, render, exit.

The group loads a command's module (`trainwreck.cli.<name>`) only when that
command runs, so a command's `--help` imports Click, this file and that module;
the top-level `--help` is printed by the package's entry (`cli/__init__.py`)
from the text `help_text()` renders, without Click. Each command module imports the library it
needs at its top.

Exit status: 0 when a report was produced (an ungrounded one too), 1 when
`kb lint` finds problems, 2 for bad usage or input, with one line on stderr,
3 for an internal error (a bug in trainwreck, never the input's fault).
Rich is used only when stdout is a terminal; piped output is plain text.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import NoReturn

import click

from trainwreck.errors import TrainwreckError, internal_error
from trainwreck.redact import redact
from trainwreck.version import __version__

INTERNAL_ERROR = 3  # exit status of a bug of ours, distinct from bad input (2)

# Command name -> (its module under trainwreck.cli, the command object's name in it,
# the summary `--help` lists). tests/test_cli.py loads every command and checks that
# its own short help is this summary, so the listing cannot drift from the commands.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "cases": (
        "cases",
        "cases",
        "Search, count, export and import confirmed failures (the case memory).",
    ),
    "check": ("check", "check", "Check config FILES against the schema of your framework version."),
    "check-answer": (
        "answer",
        "check_answer_command",
        "Check a Markdown ML-debugging diagnosis against the rules a good answer keeps: every "
        "claim cited or marked [no KB], High confidence only with its conditions, recommended "
        "keys that exist in the user's version and are not defaults, before -> after values, "
        "one consolidated config, a runnable verification script, cheapest check first, "
        "numeric prevention thresholds, exact versions, arithmetic that reproduces.",
    ),
    "checkpoints": (
        "checkpoints",
        "checkpoints",
        "Which checkpoint to resume from after a NaN or a crash.",
    ),
    "compare": (
        "compare",
        "compare_command",
        "What changed from GOOD (a run that worked) to BAD (one that broke): packages, machine, "
        "config keys, command-line flags and curves, ranked by what the knowledge base knows "
        "each can cause.",
    ),
    "curves": (
        "curves",
        "curves",
        "Find the events in a run's metric curves: NaN onset, spikes, divergence, plateaus.",
    ),
    "diagnose": (
        "diagnose",
        "diagnose",
        "Diagnose a failed run from PATHS: log files, run directories, or - for stdin.",
    ),
    "env": (
        "env",
        "env_command",
        "Check an environment: conflicting requirements, mismatched builds, known bugs.",
    ),
    "kb": ("kb", "kb", "Browse and check the knowledge base of failure patterns."),
    "learn": (
        "cases",
        "learn",
        "Store a resolved failure from PATHS (logs, a run directory) so diagnose finds it again.",
    ),
    "mcp": (
        "mcp",
        "mcp_command",
        "Serve trainwreck's tools to coding agents over the Model Context Protocol.",
    ),
    "memory": (
        "memory",
        "memory",
        "Per-GPU memory, line by line, from a model's config.json and the run's settings.",
    ),
    "run": (
        "run",
        "run_command",
        "Run COMMAND, record its output, environment, git state and configs, and on a failure "
        "print the diagnosis.",
    ),
    "triage": (
        "triage",
        "triage_command",
        "Diagnose every run under PATHS (run folders or log files) and group them by cause.",
    ),
    "version": ("kb", "version_command", "Print the trainwreck and knowledge-base versions."),
}


def _fail(message: str, status: int = 2) -> NoReturn:
    click.echo(f"trainwreck: error: {redact(message)}", err=True)  # it may quote evidence
    sys.exit(status)


def _short(summary: str, width: int) -> str:
    """The summary cut as Click cuts a loaded command's help for the listing."""
    return click.Command(None, help=summary).get_short_help_str(width)


class LazyGroup(click.Group):
    """A group whose commands are imported when they run; `--help` lists them from COMMANDS."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name, _ = COMMANDS[cmd_name]
        command: click.Command = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The listing Click would print, without importing a single command."""
        width = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, _short(summary, width)) for name, (_, _, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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


def help_text() -> str:
    """What `trainwreck --help` prints on a terminal at least 80 columns wide: the text
    `scripts/build_help.py` writes for the entry's Click-free `--help` (cli/__init__.py)."""
    # On a terminal of 80 columns or more Click renders 78: its widest, less a 2-column margin.
    context = click.Context(cli, info_name="trainwreck", terminal_width=78, **cli.context_settings)
    return cli.get_help(context) + "\n"


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
