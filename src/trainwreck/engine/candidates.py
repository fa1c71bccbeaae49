"""From evidence, findings and the run's context to scored candidates, best first."""

from __future__ import annotations

from trainwreck.context.denied import affirmed
from trainwreck.engine.match import match_all
from trainwreck.engine.rank import Candidate, order, score_candidate
from trainwreck.kb import KnowledgeBase
from trainwreck.kb.search import search
from trainwreck.model import Evidence, Finding, RunContext

# Pages the symptom search returns; enough that the stated class has pages among them
# after the context gates demote the others.
SYMPTOM_HITS = 20


def rank_candidates(
    kb: KnowledgeBase,
    evidence: Evidence,
    findings: tuple[Finding, ...],
    context: RunContext,
) -> list[Candidate]:
    """Every supported pattern, scored in the run's context and ordered best first.

    A page a finding rules out (`ruled_out_by`) is no candidate, by logs or by symptoms;
    the symptoms are searched without the setups the user says the run does not use.
    """
    matches = {m.pattern.id: m for m in match_all(kb.patterns, evidence, findings)}
    relevance: dict[str, float] = {}
    if evidence.symptoms:
        relevance = {
            hit.pattern.id: hit.score
            for hit in search(kb, affirmed(evidence.symptoms), SYMPTOM_HITS)
        }
    found = {finding.id for finding in findings}
    candidates = [
        score_candidate(
            pattern, matches.get(pattern.id), relevance.get(pattern.id, 0.0), evidence, context
        )
        for pattern in kb.patterns
        if (pattern.id in matches or pattern.id in relevance)
        and not found.intersection(pattern.ruled_out_by)
    ]
    return order([c for c in candidates if c is not None])
