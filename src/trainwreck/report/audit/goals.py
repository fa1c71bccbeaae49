"""Rule (b): fix 1 reaches the goal the report's own arithmetic states.

The report computes what the run needs (a memory budget and the changes that fit
it, the timeout that fired, the run's length in steps); a fix that stops short of
that number is a fix the report itself shows cannot work.
"""

from __future__ import annotations

from trainwreck.fixes.compare import number
from trainwreck.report.audit.base import Audited, AuditFinding, FixChange
from trainwreck.report.audit.settings import SCHEDULE_LENGTH, TIMEOUT, fit_terms, term_of

_MS_PER_SECOND = 1000
_NOT_FIT = "does not fit"
RULE = "fix-misses-goal"


def _memory(report: Audited) -> list[AuditFinding]:
    """Fix 1 changes every term the fit search needed to get under the capacity."""
    values, top = report.stated_values, report.top
    estimate, capacity = number(values.get("estimated_gib")), number(values.get("capacity_gib"))
    fitting = values.get("fitting_change")
    if top is None or not top.fixes or estimate is None or capacity is None:
        return []
    if estimate <= capacity or not isinstance(fitting, str):
        return []
    first = top.fixes[0]
    changed = {term_of(c.change.path) for c in report.changes() if c.fix == 0} | set(
        fit_terms(first.action)
    )
    missing = [term for term in fit_terms(fitting) if term not in changed]
    if not missing:
        return []
    return [
        AuditFinding(
            RULE,
            "hypotheses[0].fixes[0]",
            f"needs {estimate:g} GiB of {capacity:g}; the report's fit is {fitting!r} but fix 1 "
            f"leaves {', '.join(missing)} unchanged",
        )
    ]


def _fix_tables(report: Audited) -> list[AuditFinding]:
    """A table computed for a fix whose own result says it does not fit."""
    return [
        AuditFinding(RULE, f"arithmetic {table.title!r}", f"its result: {table.result}")
        for table in report.tables()
        if "fix" in table.title.lower() and _NOT_FIT in table.result.lower()
    ]


def _timeout(change: FixChange, fired_seconds: float) -> AuditFinding | None:
    after = number(change.change.after)
    if after is None:
        return None
    seconds = after / _MS_PER_SECOND if change.leaf.endswith("_ms") else after
    if seconds > fired_seconds:
        return None
    return AuditFinding(
        RULE, change.where, f"{seconds:g} s is not above the {fired_seconds:g} s that timed out"
    )


def _run_end(report: Audited) -> float | None:
    lines = (line for table in report.tables() for line in table.lines)
    return next((number(line.value) for line in lines if line.label == "run end"), None)


def _settings(report: Audited) -> list[AuditFinding]:
    """A timeout raised above what fired; a schedule at least as long as the run."""
    fired_ms = number(report.stated_values.get("timeout_ms"))
    run_end = _run_end(report)
    found = []
    for change in report.changes():
        if fired_ms is not None and TIMEOUT.search(change.leaf):
            found.append(_timeout(change, fired_ms / _MS_PER_SECOND))
        after = number(change.change.after)
        schedule = run_end is not None and SCHEDULE_LENGTH.match(change.leaf)
        if schedule and after is not None and run_end is not None and after < run_end:
            why = f"{after:g} steps is shorter than the {run_end:g}-step run"
            found.append(AuditFinding(RULE, change.where, why))
    return [finding for finding in found if finding is not None]


def fix_reaches_goal(report: Audited) -> list[AuditFinding]:
    """(b) Memory, timeout and step arithmetic of fix 1 against the report's own numbers."""
    return [*_memory(report), *_fix_tables(report), *_settings(report)]
