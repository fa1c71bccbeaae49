"""`trainwreck kb` (list, show, search, lint) and `trainwreck version`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from trainwreck.cli.output import emit
from trainwreck.curation.lint import lint
from trainwreck.errors import UsageError
from trainwreck.kb import PATTERNS_DIR, load
from trainwreck.kb.page import summary_row, to_markdown
from trainwreck.kb.search import search
from trainwreck.version import __version__


@click.group()
def kb() -> None:
    """Browse and check the knowledge base of failure patterns."""


@kb.command("list")
@click.option("--category", "-c", help="Only this category (oom, crash, hang, ...).")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True
)
def kb_list(category: str | None, fmt: str) -> None:
    """List every pattern: id, category, frameworks, title."""
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
    pattern = load().get(page_id)
    if pattern is None:
        raise UsageError(f"no knowledge-base page {page_id!r} (see `trainwreck kb list`)")
    emit(to_markdown(pattern), None, markdown=True)


@kb.command("search")
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", default=10, show_default=True)
def kb_search(query: tuple[str, ...], limit: int) -> None:
    """Full-text search over pattern pages (title, cause, mechanism, fixes)."""
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


@click.command("version")
def version_command() -> None:
    """Print the trainwreck and knowledge-base versions."""
    click.echo(f"trainwreck {__version__} (kb {load().version})")
