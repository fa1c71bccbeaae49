"""The report auditor's text-only rules (`report.audit.MARKDOWN_RULES`) on any answer.

Blocks parse for their language, no template leftovers, no key set twice in a
consolidated block: the auditor's findings, each mapped to a result with its line.
"""

from __future__ import annotations

import re

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleId, RuleResult
from trainwreck.answer_check.parse import Answer
from trainwreck.answer_check.rules.base import fail
from trainwreck.report.audit import MARKDOWN_RULES, Audited

RULE_IDS: dict[str, RuleId] = {
    "block-does-not-parse": "block-does-not-parse",
    "placeholder": "placeholder",
    "duplicate-key": "duplicate-key",
}
_LINE = re.compile(r"markdown:(\d+)")


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    audited = Audited(None, answer.text)
    found = []
    for check in MARKDOWN_RULES:
        for finding in check(audited):
            line = _LINE.search(finding.where)
            found.append(
                fail(RULE_IDS[finding.rule], int(line.group(1)) if line else None, finding.why)
            )
    return found
