"""From evidence and findings to scored candidates: log matches plus symptom retrieval."""

from __future__ import annotations

from trainwreck.engine.match import match_all
from trainwreck.engine.rank import Candidate, order, score_candidate
from trainwreck.kb import KnowledgeBase
from trainwreck.kb.search import search
from trainwreck.model import Evidence, Finding

SYMPTOM_HITS = 10


def rank_candidates(
    kb: KnowledgeBase,
    evidence: Evidence,
    findings: tuple[Finding, ...],
) -> list[Candidate]:
    """Every supported pattern, scored and ordered best first."""
    matches = {m.pattern.id: m for m in match_all(kb.patterns, evidence, findings)}
    relevance: dict[str, float] = {}
    if evidence.symptoms:
        relevance = {
            hit.pattern.id: hit.score for hit in search(kb, evidence.symptoms, SYMPTOM_HITS)
        }
    candidates = [
        score_candidate(pattern, matches.get(pattern.id), relevance.get(pattern.id, 0.0), evidence)
        for pattern in kb.patterns
        if pattern.id in matches or pattern.id in relevance
    ]
    return order([c for c in candidates if c is not None])
