"""Output shared by every command: plain text when piped, Rich only on a terminal."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from trainwreck.errors import UsageError


def emit(text: str, output: str | None, markdown: bool = False) -> None:
    """Write to a file, to a terminal through Rich, or plainly to a pipe."""
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {output}: {exc.strerror}") from exc
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
