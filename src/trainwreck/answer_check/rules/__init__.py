"""Every rule `check-answer` runs, with the rule ids each can report, in report order.

One explicit tuple, no registration by import: a rule is a function of the parsed
answer and its context returning the failures it found.
"""

from __future__ import annotations

from trainwreck.answer_check.model import RuleId
from trainwreck.answer_check.rules import (
    alternatives,
    changes,
    citations,
    confidence,
    keys,
    markdown,
    numbers,
    prevention,
    script,
    versions,
)
from trainwreck.answer_check.rules.base import Rule

RULES: tuple[tuple[tuple[RuleId, ...], Rule], ...] = (
    (("uncited-claim",), citations.rule),
    (("high-without-conditions",), confidence.rule),
    (("unknown-key", "default-as-fix"), keys.rule),
    (("no-before-after",), changes.before_after),
    (("verification-script",), script.rule),
    (("prevention-threshold",), prevention.rule),
    (("alternatives-order",), alternatives.rule),
    (("inexact-version",), versions.rule),
    (("consolidated-config",), changes.consolidated),
    (("block-does-not-parse", "placeholder", "duplicate-key"), markdown.rule),
    (("arithmetic-unsourced", "arithmetic-wrong", "kv-from-attention-heads"), numbers.rule),
)
