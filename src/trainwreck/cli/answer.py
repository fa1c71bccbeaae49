"""`trainwreck check-answer ANSWER.md`: a diagnosis, whoever wrote it, against the rules.

A thin shell over `trainwreck.answer_check`.
Exit status: 0 when every rule passes, 1 when any fails; bad input (a missing or
unreadable file, an empty answer) is one line and exit 2 (cli.main).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from trainwreck.answer_check import check_answer
from trainwreck.answer_check.render import to_json, to_markdown
from trainwreck.cli.output import emit
from trainwreck.limits import read_small_text

FORMATS = ("md", "json")


@click.command("check-answer")
@click.argument("answer")
@click.option(
    "--evidence",
    "evidence",
    multiple=True,
    metavar="PATH",
    help="The run's logs, run directory or config.json the answer is about: quotes are looked "
    "up in them and arithmetic recomputed from the model config. Repeatable.",
)
@click.option(
    "--env",
    "env_listing",
    metavar="LISTING",
    help="The run's environment listing (pip freeze, conda list, collect_env): the framework "
    "versions recommended keys are checked against.",
)
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="md", show_default=True)
def check_answer_command(
    answer: str, evidence: tuple[str, ...], env_listing: str | None, fmt: str
) -> None:
    """Check a Markdown ML-debugging diagnosis against the rules a good answer keeps: every
    claim cited or marked [no KB], High confidence only with its conditions, recommended keys
    that exist in the user's version and are not defaults, before -> after values, one
    consolidated config, a runnable verification script, cheapest check first, numeric
    prevention thresholds, exact versions, arithmetic that reproduces. ANSWER is a file, or
    '-' for stdin.

    \b
    Exit status:
      0  every rule passes
      1  a rule fails (each failure is listed with its line)
      2  bad input: a missing or unreadable file, or an empty answer
    """
    text = read_small_text(answer, sys.stdin.buffer, "pass the diagnosis alone")
    env = Path(env_listing) if env_listing else None
    result = check_answer(text, [Path(path) for path in evidence], env)
    emit(to_json(result) if fmt == "json" else to_markdown(result), None, markdown=fmt == "md")
    if not result.passed:
        sys.exit(1)
