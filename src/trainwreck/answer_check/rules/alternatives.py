"""`alternatives-order`: the order shown never contradicts itself (DESIGN principle 5).

Each alternative states what its check costs in the KB's words (seconds < minutes <
hours < a run, `kb.schema.COST_ORDER`); one that states none cannot be ordered.

When every alternative shows its score (our reports write "(Medium confidence, score
0.61)"), the list is in score order: a score never rises down the list, and alternatives
showing equal scores (a tie, issue 15) put the cheaper check first. A costlier check may
then come first only under a higher score, which the reader can see.

When they show no scores, an alternative stated more likely (a higher confidence) may
come before a cheaper check; among alternatives of one stated confidence the cheaper
check comes first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import pairwise

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleId, RuleResult
from trainwreck.answer_check.parse import Alternative, Answer
from trainwreck.answer_check.rules.base import fail
from trainwreck.kb.schema import COST_ORDER

RULE: RuleId = "alternatives-order"


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    alternatives = answer.alternatives
    if alternatives and all(alternative.score is not None for alternative in alternatives):
        return _rising_scores(alternatives) + _cheapest_first(
            alternatives, lambda alternative: alternative.score, "shown score"
        )
    return _cheapest_first(alternatives, lambda alternative: alternative.confidence, "confidence")


def _rising_scores(alternatives: tuple[Alternative, ...]) -> list[RuleResult]:
    found = []
    for earlier, later in pairwise(alternatives):
        if earlier.score is not None and later.score is not None and later.score > earlier.score:
            found.append(
                fail(RULE, later.line, f"score {later.score:.2f} comes after score "
                     f"{earlier.score:.2f} (line {earlier.line}): the list is not in score order")
            )  # fmt: skip
    return found


def _cheapest_first(
    alternatives: tuple[Alternative, ...],
    group_of: Callable[[Alternative], Hashable],
    group_name: str,
) -> list[RuleResult]:
    """Within each group (one shown score, or one stated confidence), the cheaper check first."""
    found = []
    dearest: dict[Hashable, Alternative] = {}  # per group: the costliest check so far
    for alternative in alternatives:
        if alternative.cost is None:
            found.append(
                fail(RULE, alternative.line, "an alternative whose check states no cost "
                     "(seconds, minutes, hours, a run)")
            )  # fmt: skip
            continue
        before = dearest.get(group_of(alternative))
        if before is None or COST_ORDER[alternative.cost] > COST_ORDER[before.cost or "seconds"]:
            dearest[group_of(alternative)] = alternative
        elif COST_ORDER[alternative.cost] < COST_ORDER[before.cost or "seconds"]:
            found.append(
                fail(RULE, alternative.line, f"a check of {alternative.cost} comes after one of "
                     f"{before.cost} (line {before.line}) of the same {group_name}: cheapest first")
            )  # fmt: skip
    return found
