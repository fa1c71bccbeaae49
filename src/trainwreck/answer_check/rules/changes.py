"""`no-before-after` and `consolidated-config`: a change a user can apply and review.

A change without its before value cannot be checked against the run (was it already
so?); without its after value it cannot be applied. Changes spread over several fix
steps need one block that holds the result, or the reader merges them by hand. When
the lead fix changes no key (a code change, a command), the keys further down are
alternatives to it, not parts of one config: our reports consolidate the lead fix.
"""

from __future__ import annotations

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleResult
from trainwreck.answer_check.parse import Answer
from trainwreck.answer_check.rules.base import fail

# Fix steps that change keys before one consolidated block is required: one step's changes
# are already in one place.
MAX_STEPS_WITHOUT_BLOCK = 1


def before_after(answer: Answer, context: Context) -> list[RuleResult]:
    return [
        fail(
            "no-before-after",
            change.line,
            f"`{change.path}` is changed without its "
            + (
                "before and after values"
                if change.before is None and change.after is None
                else "before value"
                if change.before is None
                else "after value"
            ),
        )
        for step in answer.fixes
        for change in step.changes
        if change.before is None or change.after is None
    ]


def consolidated(answer: Answer, context: Context) -> list[RuleResult]:
    changing = [step for step in answer.fixes if step.changes]
    lead_changes = bool(answer.fixes) and bool(answer.fixes[0].changes)
    if len(changing) <= MAX_STEPS_WITHOUT_BLOCK or not lead_changes or answer.blocks_of("config"):
        return []
    return [
        fail(
            "consolidated-config",
            changing[MAX_STEPS_WITHOUT_BLOCK].line,
            f"{len(changing)} fix steps change config keys, but no consolidated config block "
            "holds the result",
        )
    ]
