"""`high-without-conditions`: High confidence only with the four conditions of DESIGN principle 4.

The conditions, as `engine.calibrate` grants High: the failure is documented (the
root cause cites a page that exists in the KB), the page is neither `conditional`
(its mechanism depends on something logs do not show; the engine never rates such a
page High) nor a catch-all (`generic`), the mechanism is stated and cited, and
there is direct evidence: at least one quoted log line, each found in the
`--evidence` files when they are given.
"""

from __future__ import annotations

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleId, RuleResult
from trainwreck.answer_check.parse import CITATION, KB_PAGE, Answer
from trainwreck.answer_check.rules.base import fail, shown

RULE: RuleId = "high-without-conditions"


def _page(answer: Answer, context: Context, line: int) -> list[RuleResult]:
    cited = [
        m["page"] for region in answer.of("root_cause") for m in KB_PAGE.finditer(region.text())
    ]
    if not cited:
        return [
            fail(RULE, line, "High, but the root cause cites no KB page: not a documented failure")
        ]
    page = context.kb.get(cited[0])
    if page is None:
        return [fail(RULE, line, f"High, but [kb:{cited[0]}] is not a page of the knowledge base")]
    if page.conditional:
        return [
            fail(
                RULE,
                line,
                f"High, but [kb:{page.id}] is conditional: its mechanism "
                "depends on something the logs do not show (Medium at most)",
            )
        ]
    if page.generic:
        return [fail(RULE, line, f"High, but [kb:{page.id}] names a failure family, not one cause")]
    return []


def _mechanism(answer: Answer, line: int) -> list[RuleResult]:
    stated = [c for c in answer.claims if c.where == "mechanism"]
    if not stated:
        return [fail(RULE, line, "High, but no mechanism is stated")]
    if not any(CITATION.search(claim.text) for claim in stated):
        return [fail(RULE, stated[0].line, "High, but the mechanism is not cited")]
    return []


def _quotes(answer: Answer, context: Context, line: int) -> list[RuleResult]:
    if not answer.quotes:
        return [fail(RULE, line, "High, but no log line is quoted as evidence")]
    if not context.has_evidence:
        return []
    return [
        fail(RULE, number, f"High, but this quote is not in the evidence: {shown(quote)!r}")
        for number, quote in answer.quotes
        if not context.quoted(quote)
    ]


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    if answer.confidence is None or answer.confidence[0] != "high":
        return []
    line = answer.confidence[1]
    return [
        *_page(answer, context, line),
        *_mechanism(answer, line),
        *_quotes(answer, context, line),
    ]
