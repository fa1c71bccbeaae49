"""`trainwreck check-answer`: a Markdown ML-debugging diagnosis, ours or anyone's, against the
rules a good answer keeps (cited claims, calibrated confidence, verified keys, before and
after values, a runnable verification script, cheapest check first, numeric guards,
exact versions, arithmetic that reproduces), each rule reported pass or fail with its line.

`parse` reads the answer (tolerant of headings: `sections.SYNONYMS`), `context` what it
is checked against, `rules` the checks, `render` the output.
"""

from __future__ import annotations

from trainwreck.answer_check.check import check_answer
from trainwreck.answer_check.model import AnswerCheck, RuleResult

__all__ = ["AnswerCheck", "RuleResult", "check_answer"]
