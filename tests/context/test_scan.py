"""The literal-first search finds exactly what a plain per-text search finds."""

from __future__ import annotations

from pathlib import Path

from trainwreck.context.frameworks import FRAMEWORK_WORDS
from trainwreck.context.scan import Texts

CASES = Path(__file__).parent.parent / "cases"


def test_first_match_equals_a_naive_search_over_every_case_log() -> None:
    checked = 0
    for log in sorted(CASES.glob("*/*.log")):
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        searched = Texts(lines)
        for words in FRAMEWORK_WORDS.values():
            naive = next((i for i, line in enumerate(lines) if words.search(line)), None)
            assert searched.first(words) == naive, (log.name, words.pattern)
            checked += naive is not None
    assert checked > 100  # the logs do name frameworks: the comparison is not vacuous
