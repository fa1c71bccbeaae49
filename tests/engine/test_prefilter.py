"""The corpus's literal prefilter finds exactly what a naive per-text search finds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from trainwreck import analyzers
from trainwreck.engine.match import Corpus, Text, texts_of
from trainwreck.evidence.collect import collect
from trainwreck.evidence.literals import requirement, requirements
from trainwreck.kb import load, signature_regexes
from trainwreck.model import SourceRef

CASES = Path(__file__).parent.parent / "cases"
QUIET = {"advice", "cascade"}


def _naive_first(corpus: Corpus, regex: str, any_role: bool) -> int | None:
    pattern = re.compile(regex)
    for index, item in enumerate(corpus.texts):
        if (any_role or item.role not in QUIET) and pattern.search(item.text):
            return index
    return None


def _found(corpus: Corpus, regex: str, any_role: bool) -> int | None:
    first = corpus.first(regex, any_role)
    return None if first is None else corpus.texts.index(first[0])


def test_every_signature_on_every_case_log_matches_the_naive_search() -> None:
    kb = load()
    logs = sorted(str(path) for path in CASES.glob("*/*.log"))
    evidence = collect(logs, keep=kb.keep_parts(analyzers.KEEP))
    regexes = signature_regexes(kb.patterns)
    corpus = texts_of(evidence, regexes)
    assert len(corpus.texts) > 1000 and len(regexes) > 300
    hits = 0
    for regex in regexes:
        for any_role in (False, True):
            expected = _naive_first(corpus, regex, any_role)
            assert _found(corpus, regex, any_role) == expected, regex
            hits += expected is not None
    assert hits > 100  # the comparison covers regexes that match, not only misses


def test_a_second_required_literal_narrows_a_common_first_one() -> None:
    regex = r"(?i)\bctc[_ ]?loss['\"]?\s*[:=]?\s*inf\b"
    assert requirement(regex, 0) == (
        frozenset({"loss"}),
        frozenset({"ctc"}),
        frozenset({"inf"}),
    )
    lines = [f"{{'loss': {i}.5, 'grad_norm': 0.9}}" for i in range(200)]
    lines[150] = "step 150 ctc_loss: inf"
    lines[40] = "ctc loss went to 4.0; inf checks on"  # holds every literal, no match
    texts = [
        Text(line, SourceRef(source="train.log", line=n, text=line), "context")
        for n, line in enumerate(lines, start=1)
    ]
    corpus = Corpus(texts, requirements([regex]))
    assert corpus._holding(requirement(regex, 0) or ()) == [40, 150]
    assert _found(corpus, regex, any_role=False) == 150


@pytest.mark.parametrize(
    ("regex", "first"),
    [
        ("out of memory", frozenset({"out of memory"})),
        ("(?:CUDA|HIP) out of memory", frozenset({" out of memory"})),
        ("a|bc", None),  # a one-letter branch: no usable literal
        ("(?:nccl|gloo) timeout", frozenset({" timeout"})),
    ],
)
def test_the_most_selective_set_comes_first(regex: str, first: frozenset[str] | None) -> None:
    found = requirement(regex, 0)
    assert (found[0] if found else None) == first
