"""Output shared by every command: plain text when piped, Rich only on a terminal."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence

import click

from trainwreck.write import write_file


def emit(text: str, output: str | None, markdown: bool = False, inputs: Sequence[str] = ()) -> None:
    """Write to a file (replacing it, never through a symlink, never onto one of
    `inputs`), to a terminal through Rich, or plainly to a pipe."""
    if output:
        write_file(output, text, replace=True, inputs=inputs)
        return
    if markdown and sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
        return
    click.echo(text, nl=not text.endswith("\n"))


@contextlib.contextmanager
def spinner(message: str) -> Iterator[None]:
    """A Rich spinner on stderr while work runs, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(message):
        yield


# The report formats of the tool commands (diagnose adds HTML, env prints text).
markdown_or_json = click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
)
