"""The HTML report: self-contained, escaped, phone-readable, same sections as Markdown."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from report_fixtures import (
    TRANSFORMERS_URL,
    empty_diagnosis,
    headings,
    oom_diagnosis,
    ungrounded_diagnosis,
    with_evidence,
)

from trainwreck.model import Citation, Diagnosis
from trainwreck.report import to_html, to_markdown

VOID = {"meta", "br", "hr", "img", "input", "link", "source", "wbr"}


class Page(HTMLParser):
    """Collects tags, attributes, headings and nesting errors of one page."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.headings: list[str] = []
        self.errors: list[str] = []
        self._open: list[str] = []
        self._heading: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self._open.append(tag)
        if tag in {"h2", "h3"}:
            self._heading = "#" * int(tag[1]) + " "

    def handle_endtag(self, tag: str) -> None:
        if not self._open or self._open.pop() != tag:
            self.errors.append(f"unbalanced </{tag}>")
        if tag in {"h2", "h3"}:
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self.headings.append(self._heading + data)


@pytest.mark.parametrize("make", [oom_diagnosis, ungrounded_diagnosis, empty_diagnosis])
def test_same_sections_as_markdown(make: Callable[[], Diagnosis]) -> None:
    diagnosis = make()
    assert Page(to_html(diagnosis)).headings == headings(to_markdown(diagnosis))


def test_page_is_well_formed_and_readable_on_a_phone() -> None:
    text = to_html(oom_diagnosis())
    page = Page(text)
    assert text.startswith("<!doctype html>")
    assert page.errors == []
    assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in (
        page.tags
    )
    assert "max-width:48rem" in text
    assert "pre{white-space:pre-wrap" in text


def test_loads_nothing_and_runs_nothing() -> None:
    text = to_html(oom_diagnosis())
    page = Page(text)
    assert "<script" not in text.lower()
    assert [tag for tag, attrs in page.tags if "src" in attrs] == []
    assert [tag for tag, _ in page.tags if tag in {"link", "img", "iframe", "object"}] == []
    links = [attrs for tag, attrs in page.tags if "href" in attrs]
    assert links and all(tag == "a" for tag, attrs in page.tags if "href" in attrs)
    assert all((a["href"] or "").startswith("https://") for a in links)
    assert not any(name.startswith("on") for _, attrs in page.tags for name in attrs)
    assert "url(" not in text and "@import" not in text


def test_citations_are_links() -> None:
    page = Page(to_html(oom_diagnosis()))
    hrefs = [attrs.get("href") for tag, attrs in page.tags if tag == "a"]
    assert TRANSFORMERS_URL in hrefs


def test_planted_markup_in_a_log_line_is_escaped() -> None:
    planted = '<script>alert("pwned")</script><img src=x onerror=alert(1)>'
    text = to_html(with_evidence(oom_diagnosis(), [planted]))
    assert "<script" not in text.lower()
    assert "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;" in text
    assert [tag for tag, _ in Page(text).tags if tag == "img"] == []


def test_a_non_web_citation_url_does_not_become_a_link() -> None:
    diagnosis = oom_diagnosis()
    evil = Citation(page="kb:cuda-oom-activations", url="javascript:alert(1)", detail="x")
    top = diagnosis.hypotheses[0].model_copy(update={"citations": (evil,)})
    text = to_html(diagnosis.model_copy(update={"hypotheses": (top,)}))
    assert "javascript:" not in text


def test_unverified_keys_and_ungrounded_claims_are_flagged() -> None:
    assert '<span class="flag">[unverified key]</span>' in to_html(oom_diagnosis())
    text = to_html(ungrounded_diagnosis())
    assert text.count('<span class="ref flag">[no KB]</span>') == 3  # root cause, mechanism, fix
    assert "[kb:" not in text.split("<h3>Prevention</h3>")[0]


def test_placeholders_show_as_text_not_tags() -> None:
    line = "HF_TOKEN=hf_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"
    text = to_html(with_evidence(oom_diagnosis(), [line]))
    assert "HF_TOKEN=&lt;redacted:hf-token&gt;" in text
    assert "<redacted" not in text


def test_no_hypotheses_says_so() -> None:
    text = to_html(empty_diagnosis())
    assert "No known failure pattern matched this evidence" in text
    assert "<li>train.log (log, 412 lines)</li>" in text
    assert "<li>metrics.csv: not UTF-8 text, skipped</li>" in text
