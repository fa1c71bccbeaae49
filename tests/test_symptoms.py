"""Symptoms-only retrieval: failures described in words, with no logs at all."""

from __future__ import annotations

from pathlib import Path

from trainwreck import diagnose
from trainwreck.curation.cases import load_symptom_queries

QUERIES = load_symptom_queries(Path(__file__).parent / "symptoms")
TARGET_TOP3 = 0.8


def _top3(query: str) -> list[str]:
    return [h.id for h in diagnose(symptoms=query).hypotheses[:3]]


def test_symptoms_only_queries_find_their_page_in_the_top_3() -> None:
    assert len(QUERIES) >= 20, "the symptoms set needs at least 20 queries"
    misses = [(query, expected) for query, expected in QUERIES if expected not in _top3(query)]
    share = 1 - len(misses) / len(QUERIES)
    assert share >= TARGET_TOP3, f"{share:.0%} in top 3; misses: {misses}"


def test_symptoms_alone_never_give_more_than_low_confidence() -> None:
    report = diagnose(symptoms="CUDA out of memory during the first training step")
    assert report.hypotheses
    assert {h.confidence for h in report.hypotheses} == {"low"}
