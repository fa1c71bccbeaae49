"""Confirmed failures from the case memory, turned into hypotheses.

A shown thread (the case memory shows those at SHOW_SIMILARITY and up) that no
shown page covers becomes a hypothesis of its own, with the thread's confirmed
cause and fix, the thread as its citation and the run's lines that matched as
its evidence. A thread filed under a page that
is already shown adds no weight to it: a look-alike error (an autograd anomaly
message, an NCCL timeout) is printed by several causes, and a family page raised
by its threads outranked the specific page on the case suite. Either way the
report lists the thread under "Similar Confirmed Failures".

Every shown thread qualifies, not only the closest: leaving each of the 610
bundled records out in turn, the nearest other thread was filed under the
record's own page in 9 of 12 pairs at similarity 0.35-0.55 and 21 of 29 above
0.55 (benchmarks/case_memory_loo.py measures what it does to cause@3).
"""

from __future__ import annotations

from trainwreck.cases.records import CASE_PREFIX, is_web, source_label
from trainwreck.model import Citation, Fix, Hypothesis, SimilarCase

# A case hypothesis's score is its similarity times this: a close thread ranks above a
# page backed by family-level evidence (scores ~0.3-0.5) and below a page whose own
# specific signature matched (0.8 and up).
CASE_SCORE = 0.8
TITLE_CHARS = 120

# Before the thread's own log lines, quoted as the thread printed them (placeholders and all).
THREAD_LINES = "Compare your error with the thread's lines: "


def _title(case: SimilarCase) -> str:
    """The thread and its cause's first sentence, cut at a clause when it is long."""
    first = case.cause.split(". ")[0].rstrip(".")
    if len(first) > TITLE_CHARS:
        cut = first[:TITLE_CHARS]
        clause = max(cut.rfind(", "), cut.rfind("; "))
        first = cut[:clause] if clause > TITLE_CHARS // 2 else cut.rsplit(" ", 1)[0] + "..."
    return f"Same failure as {source_label(case.source, case.id)}: {first}"


def _why(case: SimilarCase) -> str:
    """Always Low for now: how often a close thread names the cause is not measured yet.

    A look-alike error (an NCCL watchdog line, an fp16 overflow) is printed by
    several causes, so similarity alone does not earn Medium.
    """
    return (
        f"a guess: a confirmed failure ({source_label(case.source, case.id)}, cause confirmed by: "
        f"{case.confirmed_by}) matches your evidence at {case.similarity:.0%} on "
        f"{len(case.lines)} of its lines; a look-alike error can have another cause"
    )


def case_hypothesis(case: SimilarCase) -> Hypothesis:
    """A hypothesis whose cause, fix and citation are a confirmed thread's."""
    return Hypothesis(
        id=f"{CASE_PREFIX}{case.id}",
        title=_title(case),
        category=case.category,
        frameworks=tuple(case.frameworks),
        root_cause=case.cause,
        mechanism="",
        confidence="low",
        score=round(min(1.0, CASE_SCORE * case.similarity), 4),
        citations=(
            Citation(
                page=f"{CASE_PREFIX}{case.id}",
                url=case.source if is_web(case.source) else None,
                detail=f"where the cause was confirmed ({case.confirmed_by}): {case.source}",
            ),
            *(
                (Citation(page=f"{CASE_PREFIX}{case.id}", url=case.fix_url, detail="the fix"),)
                if case.fix_url
                else ()
            ),
        ),
        evidence=case.matched,
        fixes=(Fix(action=case.fix),) if case.fix else (),
        discriminator=(THREAD_LINES + " | ".join(case.lines[:2] or ("(see the thread)",))),
        discriminator_cost="minutes",
        why_confidence=_why(case),
    )


def with_cases(
    hypotheses: list[Hypothesis], similar: tuple[SimilarCase, ...], limit: int
) -> list[Hypothesis]:
    """The page hypotheses with each close unfiled case added, best score first.

    A case hypothesis is a suggestion from a look-alike thread, so it never goes
    ahead of a page matched on this run's own lines (or made Medium/High): its
    score is capped at theirs (shown tied, the page first). It leads only over
    pages the symptoms alone retrieved, and only when one of the thread's own lines
    matched: a thread resembling the run by words scattered over its description
    (none of its lines matched) is capped at the best page too. Measured: on
    first-sight batch-3 the one case that led over a log-matched page displaced the
    right answer, and on the case suite two threads with a page's own error took the
    top from it; threads leading a symptoms-only description were judged right 0 times
    in 9 (first-sight batches 1-31 and their leave-out development runs).
    """
    shown = {h.id for h in hypotheses}
    backed = [h.score for h in hypotheses if h.evidence or h.confidence != "low"]
    cap = min(backed, default=1.0)
    best = max((h.score for h in hypotheses), default=1.0)
    capped = []
    for case in similar:
        if case.page is not None and case.page in shown:
            continue
        hypothesis = case_hypothesis(case)
        ceiling = cap if case.lines else min(cap, best)
        capped.append(hypothesis.model_copy(update={"score": min(hypothesis.score, ceiling)}))
    merged = sorted([*hypotheses, *capped], key=lambda h: (-h.score, h.id.startswith(CASE_PREFIX)))
    return merged[:limit]
