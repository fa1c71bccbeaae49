"""`uncited-claim`: every root cause, mechanism and fix step carries a source or `[no KB]`.

DESIGN principle 1: a claim without a source is the commonest failure of LLM answers;
`[no KB]` says so honestly and caps the confidence at Low.
"""

from __future__ import annotations

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleResult
from trainwreck.answer_check.parse import CITATION, Answer
from trainwreck.answer_check.rules.base import fail, shown


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    claims = [(c.line, c.where.replace("_", " "), c.text) for c in answer.claims]
    claims += [(step.line, "fix step", step.text) for step in answer.fixes]
    return [
        fail("uncited-claim", line, f"{where} with no citation and no [no KB]: {shown(text)!r}")
        for line, where, text in claims
        if not CITATION.search(text)
    ]
