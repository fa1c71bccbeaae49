"""`check_answer`: parse an answer, build what it is checked against, run every rule."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from trainwreck.answer_check import context as answer_context
from trainwreck.answer_check.model import AnswerCheck, RuleResult
from trainwreck.answer_check.parse import parse
from trainwreck.answer_check.rules import RULES
from trainwreck.errors import UsageError
from trainwreck.kb import KnowledgeBase


def check_answer(
    text: str,
    evidence: Sequence[Path] = (),
    env_listing: Path | None = None,
    kb: KnowledgeBase | None = None,
) -> AnswerCheck:
    """Every rule's results on one answer; an empty answer or a missing path is a UsageError."""
    if not text.strip():
        raise UsageError("the answer is empty: nothing to check")
    answer = parse(text)
    context = answer_context.build(answer, evidence, env_listing, kb)
    results: list[RuleResult] = []
    for rule_ids, rule in RULES:
        failed = sorted(rule(answer, context), key=lambda r: (r.rule, r.line or 0))
        results += [
            failure for rule_id in rule_ids for failure in failed if failure.rule == rule_id
        ]
        broken = {failure.rule for failure in failed}
        results += [
            RuleResult(rule_id, True, None, "ok") for rule_id in rule_ids if rule_id not in broken
        ]
    return AnswerCheck(
        tuple(results),
        tuple(str(path) for path in evidence),
        None if env_listing is None else str(env_listing),
    )
