"""Rule (d): a change's before value is the value the report read from the evidence.

`ddp_timeout: 1800 → 7200` beside arithmetic that read the timeout as 60,000 ms
tells the user their setting is the default when it is not (issue 18); the fix
is then aimed at a value the run never had.
"""

from __future__ import annotations

from trainwreck.fixes.compare import number, same
from trainwreck.fixes.formats.literals import shown
from trainwreck.model import Scalar
from trainwreck.report.audit.base import Audited, AuditFinding, FixChange
from trainwreck.report.audit.settings import ACCUMULATION, MICRO_BATCH, TIMEOUT

_MS_PER_SECOND = 1000


def _evidence_value(report: Audited, change: FixChange) -> tuple[Scalar, str] | None:
    """The value the report states for this setting, and where it states it."""
    values, leaf = report.stated_values, change.leaf
    if leaf in values:
        return values[leaf], f"values.{leaf}"
    setup = report.diagnosis.setup if report.diagnosis else None
    if setup is not None and MICRO_BATCH.match(leaf) and setup.batch_size is not None:
        return setup.batch_size, "setup.batch_size"
    if setup is not None and ACCUMULATION.match(leaf) and setup.grad_accum is not None:
        return setup.grad_accum, "setup.grad_accum"
    fired_ms = number(values.get("timeout_ms"))
    if fired_ms is not None and TIMEOUT.search(leaf):
        fired = fired_ms if leaf.endswith("_ms") else fired_ms / _MS_PER_SECOND
        return fired, "values.timeout_ms"
    return None


def _same(before: Scalar | list[Scalar], stated: Scalar) -> bool:
    one, two = number(before), number(stated)
    if one is not None and two is not None:
        return abs(one - two) <= 1e-9 * max(abs(one), abs(two))
    return same(before, stated) or str(before).lower() == str(stated).lower()


def before_matches_evidence(report: Audited) -> list[AuditFinding]:
    """(d) No before value that contradicts what the report's evidence values say."""
    found = []
    for change in report.changes():
        stated = _evidence_value(report, change)
        if stated is None or _same(change.change.before, stated[0]):
            continue
        found.append(
            AuditFinding(
                "before-differs",
                change.where,
                f"before is {shown(change.change.before)} but the report read "
                f"{shown(stated[0])} ({stated[1]})",
            )
        )
    return found
