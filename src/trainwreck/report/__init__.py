"""Renderers: a Diagnosis in, report text out; one pure function per format.

They know only the Diagnosis (not the evidence, the KB or the engine), print
nothing, and redact secrets from everything they return.
"""

from __future__ import annotations

from typing import Literal, assert_never

from trainwreck.curves.figures import Figures
from trainwreck.model import Diagnosis
from trainwreck.report.html import to_html
from trainwreck.report.json import to_json
from trainwreck.report.markdown import to_markdown
from trainwreck.report.short import to_short_markdown

Format = Literal["markdown", "json", "html"]

__all__ = ["Figures", "Format", "render", "to_html", "to_json", "to_markdown", "to_short_markdown"]


def render(
    diagnosis: Diagnosis, fmt: Format, figures: Figures | None = None, *, full: bool = False
) -> str:
    """The report for `diagnosis` in format `fmt`; only HTML shows `figures` (curve charts).

    Markdown is the short report (the top answer on one screen) unless `full`;
    JSON and HTML always carry everything.
    """
    match fmt:
        case "markdown" if full:
            return to_markdown(diagnosis)
        case "markdown":
            return to_short_markdown(diagnosis)
        case "json":
            return to_json(diagnosis)
        case "html":
            return to_html(diagnosis, figures)
        case _:
            assert_never(fmt)
