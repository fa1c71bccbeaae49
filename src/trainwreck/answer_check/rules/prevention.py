"""`prevention-threshold`: a guard says at what number it fires, or it never fires."""

from __future__ import annotations

import re

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleResult
from trainwreck.answer_check.parse import Answer
from trainwreck.answer_check.rules.base import fail, shown

_NUMBER = re.compile(r"\d")
# Citations hold digits of their own (a version-pinned URL, a page id): not a threshold.
_REFERENCE = re.compile(r"\[[^\]]*\]\([^)]*\)|\[kb:[^\]]*\]|https?://\S+")


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    return [
        fail(
            "prevention-threshold",
            line,
            f"a prevention guard with no numeric threshold: {shown(text)!r}",
        )
        for line, text in answer.guards
        if not _NUMBER.search(_REFERENCE.sub("", text))
    ]
