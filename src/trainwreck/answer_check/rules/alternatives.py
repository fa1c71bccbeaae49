"""`alternatives-order`: the cheapest check first (DESIGN principle 5).

Each alternative states what its check costs in the KB's words (seconds < minutes <
hours < a run, `kb.schema.COST_ORDER`); one that states none cannot be ordered. An
alternative stated more likely (a higher confidence) may come before a cheaper check;
among alternatives of one stated confidence the cheaper check comes first.
"""

from __future__ import annotations

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleId, RuleResult
from trainwreck.answer_check.parse import Alternative, Answer
from trainwreck.answer_check.rules.base import fail
from trainwreck.kb.schema import COST_ORDER

RULE: RuleId = "alternatives-order"


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    found = []
    dearest: dict[str | None, Alternative] = {}  # per stated confidence: the costliest so far
    for alternative in answer.alternatives:
        if alternative.cost is None:
            found.append(
                fail(RULE, alternative.line, "an alternative whose check states no cost "
                     "(seconds, minutes, hours, a run)")
            )  # fmt: skip
            continue
        before = dearest.get(alternative.confidence)
        if before is None or COST_ORDER[alternative.cost] > COST_ORDER[before.cost or "seconds"]:
            dearest[alternative.confidence] = alternative
        elif COST_ORDER[alternative.cost] < COST_ORDER[before.cost or "seconds"]:
            found.append(
                fail(RULE, alternative.line, f"a check of {alternative.cost} comes after one of "
                     f"{before.cost} (line {before.line}) of the same confidence: cheapest first")
            )  # fmt: skip
    return found
