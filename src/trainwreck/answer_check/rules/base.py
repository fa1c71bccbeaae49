"""What every rule shares: its signature and how a finding is written."""

from __future__ import annotations

from collections.abc import Callable

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleId, RuleResult
from trainwreck.answer_check.parse import Answer

Rule = Callable[[Answer, Context], list[RuleResult]]
QUOTE_CHARS = 80  # how much of a line a message quotes: enough to find it, one line long


def fail(rule: RuleId, line: int | None, message: str) -> RuleResult:
    return RuleResult(rule, False, line, message)


def shown(text: str) -> str:
    """A line as a message quotes it: shortened to QUOTE_CHARS."""
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_CHARS else f"{text[: QUOTE_CHARS - 1]}…"
