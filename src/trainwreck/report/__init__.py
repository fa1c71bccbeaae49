"""Renderers: a Diagnosis in, report text out; one pure function per format.

They know only the Diagnosis (not the evidence, the KB or the engine), print
nothing, and redact secrets from everything they return.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal, assert_never

from trainwreck.curves.figures import Figures
from trainwreck.model import Diagnosis
from trainwreck.report.html import to_html
from trainwreck.report.json import to_json
from trainwreck.report.markdown import to_markdown
from trainwreck.report.short import to_short_markdown

if TYPE_CHECKING:
    from trainwreck.report.html import to_html
    from trainwreck.report.markdown import to_markdown
    from trainwreck.report.short import to_short_markdown

Format = Literal["markdown", "json", "html"]

__all__ = ["Figures", "Format", "render", "to_html", "to_json", "to_markdown", "to_short_markdown"]
# The text renderers share the section builder; a JSON run imports none of them.
_TEXT_RENDERERS = {
    "to_html": "trainwreck.report.html",
    "to_markdown": "trainwreck.report.markdown",
    "to_short_markdown": "trainwreck.report.short",
}


def __getattr__(name: str) -> Any:
    if name in _TEXT_RENDERERS:
        return getattr(importlib.import_module(_TEXT_RENDERERS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
