"""`kb show`'s page: a multi-line fires example stays a readable block."""

from __future__ import annotations

from trainwreck.kb import load
from trainwreck.kb.page import to_markdown

KB = load()


def _page(page_id: str) -> str:
    return to_markdown(next(p for p in KB.patterns if p.id == page_id))


def test_a_log_excerpt_example_is_a_fenced_block_with_every_line() -> None:
    page = _page("custom-loss-log-of-zero")
    excerpt = page[page.index("UserWarning: Error detected in LogBackward0") :]
    block = excerpt[: excerpt.index("  ```")]
    assert "RuntimeError: Function 'LogBackward0' returned nan values" in block
    assert "- fires on:\n\n  ```\n" in page


def test_a_one_line_example_stays_inline() -> None:
    assert "- fires on: `RuntimeError: Function 'DivBackward0' returned nan values" in _page(
        "custom-loss-log-of-zero"
    )


def test_an_example_with_a_pasted_code_fence_gets_a_longer_fence() -> None:
    page = _page("grad-scaler-optimizer-stepped-twice")
    assert "- fires on:\n\n  ````\n" in page
    assert page.rstrip().endswith("  ````")
