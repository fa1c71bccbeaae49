"""`render` dispatches each format to its renderer, and golden files pin the output."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_fixtures import GOLDEN, oom_diagnosis

from trainwreck.report import Format, render, to_html, to_json, to_markdown, to_short_markdown

RENDERERS = {"markdown": to_markdown, "json": to_json, "html": to_html}
SUFFIXES = {"markdown": "md", "json": "json", "html": "html"}


@pytest.mark.parametrize("fmt", ["markdown", "json", "html"])
def test_render_dispatches_to_the_format_renderer(fmt: Format) -> None:
    diagnosis = oom_diagnosis()
    assert render(diagnosis, fmt, full=True) == RENDERERS[fmt](diagnosis)


def test_markdown_is_short_unless_full() -> None:
    diagnosis = oom_diagnosis()
    assert render(diagnosis, "markdown") == to_short_markdown(diagnosis)
    assert render(diagnosis, "json") == render(diagnosis, "json", full=True)


def test_render_rejects_an_unknown_format() -> None:
    with pytest.raises(AssertionError):
        render(oom_diagnosis(), "pdf")  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["markdown", "json", "html"])
def test_matches_golden_file(fmt: Format, update_golden: bool) -> None:
    """Run `pytest tests/report --update-golden` after an intended change; review the diff."""
    golden = GOLDEN / f"oom-llama3-8b-qlora.{SUFFIXES[fmt]}"
    _assert_golden(golden, render(oom_diagnosis(), fmt, full=True), update_golden)


def test_short_markdown_matches_golden_file(update_golden: bool) -> None:
    golden = GOLDEN / "oom-llama3-8b-qlora.short.md"
    _assert_golden(golden, render(oom_diagnosis(), "markdown"), update_golden)


def _assert_golden(golden: Path, rendered: str, update_golden: bool) -> None:
    if update_golden:
        golden.write_text(rendered, encoding="utf-8")
    assert rendered == golden.read_text(encoding="utf-8")
