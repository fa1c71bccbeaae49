"""What `check-answer` returns: one result per rule broken (or per rule kept), and what was read.

A rule that finds nothing is reported once as passed, with no line, so the reader
sees every rule that ran; a rule that finds something is reported once per finding,
with the answer's line it concerns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

RuleId = Literal[
    "uncited-claim",
    "high-without-conditions",
    "unknown-key",
    "default-as-fix",
    "no-before-after",
    "verification-script",
    "prevention-threshold",
    "alternatives-order",
    "inexact-version",
    "consolidated-config",
    "block-does-not-parse",
    "placeholder",
    "duplicate-key",
    "arithmetic-unsourced",
    "arithmetic-wrong",
    "kv-from-attention-heads",
]
RULE_IDS: tuple[RuleId, ...] = get_args(RuleId)


@dataclass(frozen=True)
class RuleResult:
    """One rule's verdict on one place of the answer (`line` is 1-based; None: the whole)."""

    rule: RuleId
    passed: bool
    line: int | None
    message: str


@dataclass(frozen=True)
class AnswerCheck:
    """Every rule's results, in rule order, and the inputs the answer was checked against."""

    results: tuple[RuleResult, ...]
    evidence: tuple[str, ...]
    env_listing: str | None

    @property
    def passed(self) -> bool:
        return all(result.passed for result in self.results)

    @property
    def failures(self) -> tuple[RuleResult, ...]:
        return tuple(result for result in self.results if not result.passed)
