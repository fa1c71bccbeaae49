"""The arithmetic rules (`answer_check.arithmetic`): each line's inputs sourced, each number
recomputed where the model's config.json is among the evidence."""

from __future__ import annotations

from trainwreck.answer_check.arithmetic import arithmetic_problems
from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleResult
from trainwreck.answer_check.parse import Answer
from trainwreck.answer_check.rules.base import fail


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    return [
        fail(
            problem.rule,
            problem.line,
            problem.message
            if problem.expected is None
            else f"{problem.message} (expected {problem.expected})",
        )
        for problem in arithmetic_problems(answer.numbered_lines, context.model_configs)
    ]
