"""Every real config in the corpus passes against the versions it was written for."""

from __future__ import annotations

from pathlib import Path

import pytest
from verify_corpus import CONFIGS, corpus, era

from trainwreck.verify import check_files


def test_corpus_is_large_and_sourced() -> None:
    files = corpus()
    sources = (CONFIGS / "SOURCES.md").read_text(encoding="utf-8")
    assert len(files) >= 40
    missing = [p.name for p in files if f"`{p.name}`" not in sources]
    assert missing == []


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.name)
def test_real_config_has_no_false_alarm(path: Path) -> None:
    report = check_files([str(path)], versions=era(path), use_live=False)[0]
    assert report.error is None
    assert report.kind != "unreadable"
    assert report.keys_checked > 0
    loud = [p for p in report.problems if p.severity == "error" or p.kind != "deprecated"]
    assert loud == [], [p.message for p in loud]
