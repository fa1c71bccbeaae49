"""Assemble the Diagnosis from ranked candidates: hypotheses, prevention, warnings."""

from __future__ import annotations

from trainwreck.engine.calibrate import calibrate
from trainwreck.engine.fallback import ungrounded
from trainwreck.engine.missing import next_evidence
from trainwreck.engine.rank import CAUSE_FINDING_WEIGHT, Candidate
from trainwreck.engine.recall import with_cases
from trainwreck.engine.shown import (
    MAX_HYPOTHESES,
    against_statement,
    category_of,
    for_absent_framework,
    shown,
    supported,
)
from trainwreck.fixes.consistency import without_advice_against
from trainwreck.fixes.consolidate import consolidated_blocks
from trainwreck.fixes.effective_batch import accumulation_change
from trainwreck.fixes.fit_plan import BUDGET_FINDINGS, alone_note, plan_fix
from trainwreck.fixes.guards import guard_prevention
from trainwreck.fixes.owners import code_wrong_for_run, for_another_stack
from trainwreck.fixes.scripts import verification_for
from trainwreck.fixes.snippets import snippets_for
from trainwreck.fixes.verify import concrete_fix, fill_text, keys_verified
from trainwreck.kb import KnowledgeBase
from trainwreck.kb.schema import Pattern, PatternFix
from trainwreck.model import (
    Change,
    Citation,
    Diagnosis,
    Evidence,
    Finding,
    Fix,
    Hypothesis,
    Prevention,
    RunContext,
    Scalar,
    SimilarCase,
    SourceRef,
    ToolInfo,
)
from trainwreck.version import __version__

MAX_EVIDENCE = 5


def _evidence_refs(candidate: Candidate) -> tuple[SourceRef, ...]:
    refs: dict[tuple[str, int | None], SourceRef] = {}
    for hit in candidate.match.hits if candidate.match else ():
        if hit.ref is not None:
            refs.setdefault((hit.ref.source, hit.ref.line), hit.ref)
    return tuple(refs.values())[:MAX_EVIDENCE]


def _values(candidate: Candidate, evidence: Evidence) -> dict[str, Scalar]:
    setup = evidence.setup.model_dump(exclude={"frameworks"}, exclude_none=True)
    return {**setup, **(candidate.match.values if candidate.match else {})}


def _named_cause(candidate: Candidate, findings: tuple[Finding, ...]) -> str | None:
    """What an analyzer or code detector established about this run's cause, if it did.

    A page says what the failure family's causes are; a finding that names the
    cause in this run ("labels are 1-based: target 10 == 10 classes") is the
    sentence a reader needs first. Only findings the page weighs as naming a
    cause (>= CAUSE_FINDING_WEIGHT) are quoted, not those restating its message.
    """
    hits = candidate.match.hits if candidate.match else ()
    named = [h.signature.finding for h in hits if h.signature.weight >= CAUSE_FINDING_WEIGHT]
    by_id = {finding.id: finding for finding in findings}
    sentences = [by_id[name].title for name in named if name in by_id]
    return " ".join(f"In this run: {sentence}." for sentence in sentences[:2]) or None


def _keep_effective_batch(fix: Fix, evidence: Evidence) -> tuple[Fix, list[str]]:
    """The fix with accumulation raised wherever it cuts a micro-batch (fixes.effective_batch)."""
    have = {change.path for change in fix.changes}
    changes: list[Change] = []
    warnings: list[str] = []
    for change in fix.changes:
        changes.append(change)
        extra = accumulation_change(change, evidence)
        if extra is None or extra.path in have:
            continue
        filled, notes = concrete_fix(PatternFix(action="", changes=(extra,)), {}, evidence)
        changes += filled.changes
        warnings += notes
    return fix.model_copy(update={"changes": tuple(changes)}), warnings


def _fixes(
    pattern: Pattern,
    values: dict[str, Scalar],
    evidence: Evidence,
    findings: tuple[Finding, ...],
    context: RunContext,
) -> tuple[list[Fix], list[str]]:
    """The page's fixes filled in, a verified one first; a fitting plan from the memory
    arithmetic leads them when the page is explained by that budget."""
    fixes, warnings = [], []
    held = {finding.id for finding in findings}
    for recipe in pattern.fixes:
        if held.intersection(recipe.unless) or (recipe.when and not held.intersection(recipe.when)):
            continue  # advice this run's findings contradict, or that needs one it lacks
        if for_another_stack(recipe, context):
            continue
        fix, fix_warnings = concrete_fix(recipe, values, evidence, context)
        fixes.append(fix)
        warnings.extend(fix_warnings)
    fixes.sort(key=lambda fix: not keys_verified(fix, evidence))  # lead with a verified fix
    if any(sig.finding in BUDGET_FINDINGS for sig in pattern.signatures):
        fixes = [alone_note(fix, findings) for fix in fixes]
        if (plan := plan_fix(findings, evidence)) is not None:
            fix, fix_warnings = concrete_fix(plan, values, evidence, context)
            fixes.insert(0, fix)
            warnings.extend(fix_warnings)
    kept = []
    for fix in fixes:
        fix, fix_warnings = _keep_effective_batch(fix, evidence)
        kept.append(fix)
        warnings.extend(w for w in fix_warnings if w not in warnings)
    return kept, warnings


def to_hypothesis(
    candidate: Candidate,
    rival: Candidate | None,
    evidence: Evidence,
    context: RunContext,
    findings: tuple[Finding, ...] = (),
) -> tuple[Hypothesis, list[str]]:
    """A KB-grounded hypothesis with concrete fixes; warnings for unavailable keys."""
    pattern = candidate.pattern
    values = _values(candidate, evidence)
    confidence, why = calibrate(candidate, rival)
    fixes, warnings = _fixes(pattern, values, evidence, findings, context)
    citations = tuple(
        Citation(page=f"kb:{pattern.id}", url=c.url, detail=c.detail) for c in pattern.citations
    )
    hypothesis = Hypothesis(
        id=pattern.id,
        title=fill_text(pattern.title, values),
        category=category_of(pattern, context),
        frameworks=pattern.frameworks,
        root_cause=" ".join(
            part
            for part in (
                _named_cause(candidate, findings),
                fill_text(pattern.root_cause.strip(), values),
            )
            if part
        ),
        mechanism=fill_text(" ".join(pattern.mechanism.split()), values),
        confidence=confidence,
        score=min(1.0, candidate.score),
        evidence=_evidence_refs(candidate),
        values={k: v for k, v in (candidate.match.values if candidate.match else {}).items()},
        citations=citations,
        fixes=tuple(fixes),
        discriminator=pattern.discriminator.strip(),
        discriminator_cost=pattern.discriminator_cost,
        why_confidence="; ".join([why, *candidate.version_notes]),
    )
    return hypothesis, warnings


def _prevention(
    kb: KnowledgeBase, hypotheses: list[Hypothesis], context: RunContext
) -> tuple[Prevention, ...]:
    """The top page's guards, topped up to two from the shown pages of its class.

    Only pages the evidence put in the report: topping up from any page of the
    class gave every ungrounded crash the first crash page's `retain_graph` guard.
    A guard whose code template an earlier one filled is that guard at another
    threshold, so only the first (the top page's) is kept; a JAX run gets a
    guard's advice without its torch code (issue 18).
    """
    if not hypotheses:
        return ()
    top = hypotheses[0]
    pages = [kb.get(h.id) for h in hypotheses if h is top or h.category == top.category]
    guards: list[Prevention] = []
    seen: set[str] = set()
    for pattern in pages:
        if pattern is None or len(guards) >= 2:
            continue
        for guard in pattern.prevention:
            key = guard.code.template if guard.code else guard.guard
            if key in seen:
                continue
            seen.add(key)
            prevention = guard_prevention(guard, pattern.id, top.values)
            if code_wrong_for_run(prevention.code or "", context):  # the advice, not the code
                prevention = prevention.model_copy(update={"code": None, "source": None})
            guards.append(prevention)
    return tuple(guards)


def _summary(hypotheses: list[Hypothesis], evidence: Evidence) -> str:
    if not hypotheses:
        read = sum(f.lines_read or 0 for f in evidence.files)
        return f"No failure signature found in {len(evidence.files)} input(s), {read} lines read."
    top = hypotheses[0]
    tag = "" if top.grounded else " [no KB]"
    return f"{top.title} ({top.category}, {top.confidence} confidence){tag}"


def build(
    kb: KnowledgeBase,
    evidence: Evidence,
    context: RunContext,
    findings: tuple[Finding, ...],
    ranked: list[Candidate],
    similar: tuple[SimilarCase, ...] = (),
) -> Diagnosis:
    """The Diagnosis: up to five hypotheses, or one ungrounded one when nothing matched.

    Close confirmed cases no shown page covers join the hypotheses by score.
    """
    hypotheses: list[Hypothesis] = []
    warnings = [f"{gap.source}: {gap.reason}" for gap in evidence.gaps]
    words_only = not evidence.files  # the user's words, no file read
    selected = shown(ranked, context, words_only)
    for index, candidate in enumerate(selected):
        # The rival a hypothesis is calibrated against: for the top, the next one; for an
        # alternative, the one ranked just above it (it cannot be surer than a page it follows
        # within a tie).
        rival = selected[index - 1] if index else (selected[1] if len(selected) > 1 else None)
        hypothesis, fix_warnings = to_hypothesis(candidate, rival, evidence, context, findings)
        hypotheses.append(hypothesis)
        warnings.extend(w for w in fix_warnings if w not in warnings)
    close = tuple(
        case
        for case in similar
        if not for_absent_framework(case, context) and not against_statement(case, context)
    )
    hypotheses = with_cases(hypotheses, close, MAX_HYPOTHESES)
    hypotheses = without_advice_against(supported(hypotheses, context, words_only))
    if not hypotheses and (fallback := ungrounded(evidence, findings)) is not None:
        hypotheses.append(fallback)
    if hypotheses:  # one script, for the top hypothesis: the fix the report leads with
        top = hypotheses[0]
        hypotheses[0] = top.model_copy(
            update={"verification": verification_for(top, evidence, findings)}
        )
    grounded = bool(hypotheses) and hypotheses[0].grounded
    undecided = all(h.confidence == "low" for h in hypotheses)
    given = frozenset(item.kind for item in evidence.files)
    requests, questions = next_evidence(hypotheses, context, given) if undecided else ((), ())
    return Diagnosis(
        tool=ToolInfo(version=__version__, kb_version=kb.version),
        grounding="kb" if grounded else "ungrounded",
        summary=_summary(hypotheses, evidence),
        setup=evidence.setup,
        context=context,
        hypotheses=tuple(hypotheses),
        undecided=undecided,
        next_evidence=requests,
        questions=questions,
        arithmetic=tuple(f.arithmetic for f in findings if f.arithmetic is not None),
        findings=findings,
        prevention=_prevention(kb, hypotheses, context),
        snippets=snippets_for(findings),
        warnings=tuple(warnings),
        inputs=evidence.files,
        consolidated=consolidated_blocks(hypotheses, evidence.files, context.frameworks),
        similar_cases=similar,
    )
