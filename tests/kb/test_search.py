"""The symptom search: words that say what went wrong, not where something lives."""

from __future__ import annotations

from trainwreck import kb
from trainwreck.cases import CaseRecord, described_pages, load_memory
from trainwreck.cases.match import bundled_records
from trainwreck.kb.search import search


def test_a_web_address_in_the_symptoms_retrieves_nothing() -> None:
    # batch-8's Megatron description quotes a pip install from a git URL; its "https github
    # com" matched the Git LFS page, whose text quotes the pointer's spec URL
    assert search(kb.load(), "git+https://github.com/NVIDIA/TransformerEngine.git@stable") == []


def test_the_words_around_an_address_still_count() -> None:
    hits = search(kb.load(), "see https://example.org/x: UnpicklingError invalid load key")
    assert hits and hits[0].pattern.id == "weights-file-is-lfs-pointer-or-html-page"


def test_a_model_name_keeps_only_how_it_was_built() -> None:
    # a bundled wrong-output record names "DeepSeek-Coder-V2-Lite-Instruct-4bit-mlx": its
    # "Instruct" stems to "instruct" and matched the Illegal-instruction page
    plain = search(kb.load(), "DeepSeek-Coder-V2-Lite-Instruct-4bit-mlx", 50)
    assert "native-library-needs-missing-cpu-instructions" not in {h.pattern.id for h in plain}
    # "AWQ" in "Meta-Llama-3.1-8B-Instruct-AWQ-INT4" still says the model is quantised
    assert search(kb.load(), "Meta-Llama-3.1-8B-Instruct-AWQ-INT4", 50)


def test_hyphenated_words_without_a_digit_stay_words() -> None:
    hits = search(kb.load(), "CUDA out-of-memory during the first step", 5)
    assert hits and hits[0].pattern.category == "oom"


def _record(prefix: str) -> CaseRecord:
    return next(r for r in bundled_records() if r.id.startswith(prefix))


def test_how_users_described_a_pages_cases_finds_it_in_their_words() -> None:
    """batch-15's batched-generation reproduction, left out of the memory: its user says
    "one prompt at a time is perfect ... as one batch exact match drops"; the page's own
    text speaks of right padding, and batch-9's reproduction told in the same words
    brings it first."""
    case = _record("r15E-transformers-batched-generate")
    assert case.symptoms is not None
    described = described_pages(load_memory(exclude=[case.source]))
    assert ("decoder-right-padding-generation", case.symptoms) not in described
    plain = search(kb.load(), case.symptoms, 5)
    told = search(kb.load(), case.symptoms, 5, described)
    assert plain[0].pattern.id != "decoder-right-padding-generation"
    assert told[0].pattern.id == "decoder-right-padding-generation"


def test_a_memory_switched_off_describes_nothing() -> None:
    assert described_pages(load_memory(bundled=False)) == ()
