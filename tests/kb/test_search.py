"""The symptom search: words that say what went wrong, not where something lives."""

from __future__ import annotations

from trainwreck import kb
from trainwreck.kb.search import search


def test_a_web_address_in_the_symptoms_retrieves_nothing() -> None:
    # batch-8's Megatron description quotes a pip install from a git URL; its "https github
    # com" matched the Git LFS page, whose text quotes the pointer's spec URL
    assert search(kb.load(), "git+https://github.com/NVIDIA/TransformerEngine.git@stable") == []


def test_the_words_around_an_address_still_count() -> None:
    hits = search(kb.load(), "see https://example.org/x: UnpicklingError invalid load key")
    assert hits and hits[0].pattern.id == "weights-file-is-lfs-pointer-or-html-page"
