"""From evidence, findings and the run's context to scored candidates, best first."""

from __future__ import annotations

from trainwreck.context.denied import affirmed
from trainwreck.engine.match import match_all
from trainwreck.engine.rank import Candidate, order, score_candidate
from trainwreck.evidence.literals import compiled
from trainwreck.kb import KnowledgeBase
from trainwreck.kb.schema import Pattern
from trainwreck.kb.search import Described, search
from trainwreck.model import Evidence, Finding, RunContext

# Pages the symptom search returns; enough that the stated class has pages among them
# after the context gates demote the others.
SYMPTOM_HITS = 20
# When the user states a class, its best-matching pages join the search's hits even
# when other classes' pages outscore them on shared words: without one, the gate has no
# page of the stated class to put first.
STATED_CLASS_HITS = 3
# How deep the search looks for them (the KB has under 500 pages).
STATED_CLASS_DEPTH = 200


def _names_a_keyword(pattern: Pattern, said: str) -> bool:
    return any(_starts_a_word(keyword.lower(), said) for keyword in pattern.keywords)


def _starts_a_word(keyword: str, said: str) -> bool:
    """`keyword` occurs in `said` where a word (or a snake_case part) begins: "hang" in
    "hangs" or "a hang", not in "changed"; "acos" not in "macos", "d_model" not in
    "load_model", but "warmup" in "get_schedule_with_warmup". The end stays open, so a
    stem names its inflections ("overfit" in "overfitting"). Measured over the first-sight
    descriptions: 152 of the 196 keyword hits this rejects were "hang" inside "change"."""
    if not keyword[:1].isalnum():
        return keyword in said
    start = said.find(keyword)
    while start >= 0:
        if start == 0 or not said[start - 1].isalnum():
            return True
        start = said.find(keyword, start + 1)
    return False


def _grows_as_said(pattern: Pattern, context: RunContext) -> bool:
    """The user says memory grows, and the page's memory does: the course speaks for it the
    way a keyword would (a `keywords_only` page) and brings it in when words share little."""
    return bool(context.memory_grows) and pattern.memory_grows


def _said_excluded(pattern: Pattern, said: str) -> bool:
    """The user's words hold one of the page's `excludes`: what they describe rules the page
    out as firmly as the same line in a log ("I put @jax.jit on the step" for a page about
    a step that was never compiled)."""
    return any(compiled(regex).search(said) for regex in pattern.excludes)


def _symptom_relevance(
    kb: KnowledgeBase, evidence: Evidence, context: RunContext, described: Described
) -> dict[str, float]:
    """Pages the symptoms retrieve, with the stated class's best ones among them, and every
    page whose memory grows when the user says memory grows.

    Not retrieved: a page only its finding can speak for, a page whose `excludes` the
    description holds, a `keywords_only` page whose keywords (or course) the symptoms do
    not name, and, when the user's code files were read, a page whose mistake a code
    detector would have seen there (the symptoms' words put such pages first in runs
    whose code does not contain the mistake: batch-10's flat-accuracy and checkpoint-save
    reproductions led with a token-metric page).
    """
    if not evidence.symptoms:
        return {}
    code_read = any(snippet.origin == "file" for snippet in evidence.code)
    said = evidence.symptoms.lower()
    hits = [
        hit
        for hit in search(kb, affirmed(evidence.symptoms), STATED_CLASS_DEPTH, described)
        if not hit.pattern.speaks_through_finding
        and not _said_excluded(hit.pattern, evidence.symptoms)
        and not (code_read and hit.pattern.seen_in_code)
        and not (
            hit.pattern.keywords_only
            and not _names_a_keyword(hit.pattern, said)
            and not _grows_as_said(hit.pattern, context)
        )
    ]
    stated = context.stated.category if context.stated else None
    in_class = [hit for hit in hits if stated in hit.pattern.classes][:STATED_CLASS_HITS]
    growing = [hit for hit in hits if _grows_as_said(hit.pattern, context)]
    return {hit.pattern.id: hit.score for hit in (*hits[:SYMPTOM_HITS], *in_class, *growing)}


def rank_candidates(
    kb: KnowledgeBase,
    evidence: Evidence,
    findings: tuple[Finding, ...],
    context: RunContext,
    described: Described = (),
) -> list[Candidate]:
    """Every supported pattern, scored in the run's context and ordered best first.

    A page a finding rules out (`ruled_out_by`) is no candidate, by logs or by symptoms, nor
    is one whose `excludes` the description holds, even where its log line matched (batch-13's
    crack-segmentation reproduction: a BCE loss below zero, led by the unbounded-loss page);
    the symptoms are searched without the setups the user says the run does not use, in
    the pages' text and in how users described the confirmed cases filed under them.
    """
    said = evidence.symptoms or ""
    matches = {
        m.pattern.id: m
        for m in match_all(kb.patterns, evidence, findings)
        if not _said_excluded(m.pattern, said)
    }
    relevance = _symptom_relevance(kb, evidence, context, described)
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
