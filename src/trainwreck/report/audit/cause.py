"""Rule (e): the advice is not the cause: a fix never sets what the diagnosis blames.

Observed (issue 18): "more workers" when too many workers is the cause; serving
with `--dtype half` when fp16 overflow is the cause; a change whose new value is
the value the evidence already shows (the run had it when it failed).
"""

from __future__ import annotations

import re

from trainwreck.fixes.compare import direction, same
from trainwreck.fixes.formats.literals import shown
from trainwreck.model import Hypothesis, Scalar
from trainwreck.report.audit.base import Audited, AuditFinding, FixChange

RULE = "advice-is-cause"
_WORDS_AFTER_KEY = r"(?:[\w=(),']+ ){0,4}"
_TOO_HIGH = r"(?:larger|higher|greater|more|too many|too high|too large|too big|exceeds|above)\b"
_TOO_LOW = r"(?:smaller|lower|fewer|less|too few|too low|too small|below)\b"
_HALF = {"half", "fp16", "float16", "torch.float16", "f16"}
_HALF_OVERFLOWS = re.compile(
    r"(?:fp16|float16|half[- ]precision)[^.]{0,80}(?:overflow|inf\b|nan\b|range)|"
    r"(?:overflow|inf\b|nan\b)[^.]{0,80}(?:fp16|float16|half[- ]precision)",
    re.I,
)


def _cause_text(top: Hypothesis) -> str:
    return f"{top.title}. {top.root_cause}"


def _blamed_direction(leaf: str, cause: str) -> str | None:
    """`higher` when the cause says the setting is too high, `lower` when too low."""
    key = re.escape(leaf)
    if re.search(rf"\b{key}\b[= ]*\S* {_WORDS_AFTER_KEY}(?:is |are )?{_TOO_HIGH}", cause, re.I):
        return "higher"
    if re.search(rf"\b{key}\b[= ]*\S* {_WORDS_AFTER_KEY}(?:is |are )?{_TOO_LOW}", cause, re.I):
        return "lower"
    return None


def _check(change: FixChange, cause: str, stated: Scalar) -> str | None:
    """Why this change repeats the cause, or None."""
    after = change.change.after
    before = change.change.before if change.change.before is not None else stated
    if stated is not None and same(after, stated):
        return f"sets {shown(after)}, the value the evidence shows for the failed run"
    blamed = _blamed_direction(change.leaf, cause)
    if blamed is not None and direction(before, after) == blamed:
        moved = f"{shown(before)} → {shown(after)}"
        return f"moves {change.leaf} {blamed} ({moved}), the way the cause blames it"
    half = isinstance(after, str) and after.lower() in _HALF
    if (half or (after is True and "fp16" in change.leaf)) and _HALF_OVERFLOWS.search(cause):
        return f"sets {shown(after)} (fp16) while the cause is fp16 overflow"
    return None


def advice_is_not_the_cause(report: Audited) -> list[AuditFinding]:
    """(e) No change of the top hypothesis's fixes sets the value or direction it blames."""
    top = report.top
    if top is None:
        return []
    cause = _cause_text(top)
    found = []
    for change in report.changes():
        why = _check(change, cause, report.stated_values.get(change.leaf))
        if why is not None:
            found.append(AuditFinding(RULE, change.where, why))
    return found
