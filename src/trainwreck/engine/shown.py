"""Which ranked candidates a report shows: the answer and the alternatives worth reading.

A page for a framework the run never shows is no answer, and an alternative needs
evidence of its own or the top one's failure class (issue 18, "Noise").
"""

from __future__ import annotations

from collections.abc import Sequence

from trainwreck.cases.query import DESCRIPTION
from trainwreck.cases.records import CASE_PREFIX
from trainwreck.context.frameworks import with_foundations
from trainwreck.engine.gate import fits, related
from trainwreck.engine.rank import Candidate
from trainwreck.engine.recall import case_hypothesis
from trainwreck.fixes.named import named
from trainwreck.kb.schema import Pattern
from trainwreck.model import Category, Hypothesis, RunContext, SimilarCase

MAX_HYPOTHESES = 5
# The KB's weight scale: a message restated weighs 0.3 and up; below that a hit is
# context that makes a page possible (a setting, a library frame), not evidence of it.
CONTEXT_WEIGHT = 0.25


def category_of(pattern: Pattern, context: RunContext) -> Category:
    """The page's class; a page for any class, or seen as the class the run states,
    takes that class."""
    stated = context.stated or context.logged
    if stated is not None and (pattern.any_class or stated.category in pattern.classes):
        return stated.category
    return pattern.category


def shown(ranked: list[Candidate], context: RunContext, words_only: bool) -> list[Candidate]:
    """The top candidate and the alternatives worth showing beside it.

    A page for a framework the run never shows (a JAX barrier in a DeepSpeed run, a
    vLLM pin for a JAX plugin) or for other hardware (an MPS page in a CUDA run) is no
    answer while another page fits, unless its own message matched (issue 18); alone,
    it stays the (demoted) best guess.
    An alternative has log evidence of its own or shares the top one's failure
    class or the class the user states, and its title names no framework the run
    lacks unless its own message matched; a symptom-only or context-only page of
    another class is noise, not an alternative. With nothing read but the user's
    words (`words_only`), the top's class is as much a guess as the rest, so the
    next guesses stay.
    """
    # nothing fits: the gate's demotion has said what it can
    fitting = [c for c in ranked if c.specific or fits(c.pattern, context)] or ranked[:1]
    if not fitting or words_only:
        return fitting[:MAX_HYPOTHESES]
    classes = alternative_classes(category_of(fitting[0].pattern, context), context)
    rest = [
        c
        for c in fitting[1:]
        if (_own_evidence(c) or category_of(c.pattern, context) in classes)
        and (c.specific or not _names_absent(c.pattern.title, context))
    ]
    return [fitting[0], *rest][:MAX_HYPOTHESES]


def _names_absent(title: str, context: RunContext) -> bool:
    """A title that names a framework the run shows none of (PyTorch in a run that shows
    only HF datasets), read as the report auditor reads it (`fixes.named`); a run that
    shows no framework is held to nothing."""
    present = with_foundations(context.frameworks)
    return bool(present) and bool(named(title) - present)


def alternative_classes(top: Category, context: RunContext) -> set[Category]:
    """The classes an alternative without evidence of its own may have: the top
    answer's, and the one the user states happened when a log line pulled the top
    to an unrelated class (an OOM page for "different logits every run")."""
    stated = context.stated
    if stated is None or related(top, stated.category):
        return {top}
    return {top, stated.category}


def _own_evidence(candidate: Candidate) -> bool:
    """Whether a log hit points at the page itself, not only at the run's setting.

    A hit at or below CONTEXT_WEIGHT is context (`--fp16`, a frame inside a
    library): it made clip-grad and scheduler-order pages alternatives in an OOM
    report (issue 18).
    """
    hits = candidate.match.hits if candidate.match else ()
    return any(hit.signature.weight > CONTEXT_WEIGHT for hit in hits)


def for_absent_framework(case: SimilarCase, context: RunContext) -> bool:
    """A look-alike thread about a framework this run does not show (a PEFT thread for a
    plain PyTorch script) is no alternative: its cause names a stack the run lacks."""
    return _names_absent(case_hypothesis(case).title, context)


def against_statement(case: SimilarCase, context: RunContext) -> bool:
    """A look-alike thread of a class unrelated to the one the user states (a slow
    Trainer thread for "the metrics look wrong") is no hypothesis: it matched words,
    and the page gate would demote a page of that class below any page that fits."""
    stated = context.stated
    return stated is not None and not related(case.category, stated.category)


def supported(
    hypotheses: list[Hypothesis], context: RunContext, words_only: bool
) -> list[Hypothesis]:
    """`shown`'s rule again once confirmed cases have joined: a case can take the top
    from a symptom-only page, and the alternatives kept for that page's class would
    then stand beside a top of another class with no evidence of their own."""
    if not hypotheses or not hypotheses[0].grounded or words_only:
        return hypotheses
    classes = classes_beside(hypotheses, context)
    top = hypotheses[0]
    return [top, *(h for h in hypotheses[1:] if h.evidence or h.category in classes)]


def classes_beside(hypotheses: Sequence[Hypothesis], context: RunContext) -> set[Category]:
    """The classes an alternative without evidence of its own may have under the top
    hypothesis; when a thread matched on the description's words alone took the top, the
    page it displaced keeps its class's alternatives too (batch-18's DeepSpeed scheduler
    thread lost every config page, the one naming its cause included, to a look-alike
    thread of another class)."""
    top = hypotheses[0]
    classes = alternative_classes(top.category, context)
    if top.id.startswith(CASE_PREFIX) and all(ref.source == DESCRIPTION for ref in top.evidence):
        page = next((h for h in hypotheses[1:] if not h.id.startswith(CASE_PREFIX)), None)
        if page is not None:
            classes |= alternative_classes(page.category, context)
    return classes
