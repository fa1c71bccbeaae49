"""Renderers: a Diagnosis in, report text out; one pure function per format.

They know only the Diagnosis (not the evidence, the KB or the engine), print
nothing, and redact secrets from everything they return.
"""

from __future__ import annotations

from typing import Literal, assert_never

from trainwreck.model import Diagnosis
from trainwreck.report.figures import Figures
from trainwreck.report.html import to_html
from trainwreck.report.json import to_json
from trainwreck.report.markdown import to_markdown

Format = Literal["markdown", "json", "html"]

__all__ = ["Figures", "Format", "render", "to_html", "to_json", "to_markdown"]


def render(diagnosis: Diagnosis, fmt: Format, figures: Figures | None = None) -> str:
    """The report for `diagnosis` in format `fmt`; only HTML shows `figures` (curve charts)."""
    match fmt:
        case "markdown":
            return to_markdown(diagnosis)
        case "json":
            return to_json(diagnosis)
        case "html":
            return to_html(diagnosis, figures)
        case _:
            assert_never(fmt)
