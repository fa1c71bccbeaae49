"""Rule (c): a smaller micro-batch keeps the effective batch, or says that it does not.

Cutting `per_device_train_batch_size` from 8 to 1 without raising gradient
accumulation by 8 trains on an eighth of the batch the learning rate was tuned
for; advice to "raise gradient_accumulation_steps" that the patch does not apply
is the observed defect (issue 18: effective batch 16 → 2).
"""

from __future__ import annotations

import re

from trainwreck.fixes.compare import number
from trainwreck.model import Fix
from trainwreck.report.audit.base import Audited, AuditFinding, FixChange
from trainwreck.report.audit.settings import ACCUMULATION, MICRO_BATCH

# Words that tell the reader the effective batch changes (not that it is kept).
_SAYS_IT_CHANGES = re.compile(
    r"effective batch (?:\w+ ){0,3}(?:drops|falls|shrinks|changes|becomes|goes|is now|"
    r"smaller|halves)|(?:smaller|changed|new) effective batch",
    re.I,
)


def _before(change: FixChange, fallback: int | None) -> float | None:
    before = number(change.change.before)
    return before if before is not None else (None if fallback is None else float(fallback))


def _fix_text(fix: Fix) -> str:
    return " ".join([fix.action, *(c.reason or "" for c in fix.changes)])


def batch_cut_keeps_effective_batch(report: Audited) -> list[AuditFinding]:
    """(c) Each micro-batch cut multiplies accumulation by the same factor, or says so."""
    top, d = report.top, report.diagnosis
    if top is None or d is None:
        return []
    changes = list(report.changes())
    found = []
    for cut in (c for c in changes if MICRO_BATCH.match(c.leaf)):
        old_batch, new_batch = _before(cut, d.setup.batch_size), number(cut.change.after)
        if old_batch is None or new_batch is None or new_batch >= old_batch:
            continue
        accumulation = next(
            (c for c in changes if c.fix == cut.fix and ACCUMULATION.match(c.leaf)), None
        )
        old_accumulation = _before(accumulation, d.setup.grad_accum) if accumulation else None
        old_accumulation = old_accumulation or float(d.setup.grad_accum or 1)
        new_accumulation = number(accumulation.change.after) if accumulation else old_accumulation
        old_effective = old_batch * old_accumulation
        new_effective = new_batch * (new_accumulation or old_accumulation)
        if new_effective == old_effective or _SAYS_IT_CHANGES.search(_fix_text(top.fixes[cut.fix])):
            continue
        found.append(
            AuditFinding(
                "batch-cut-effective-batch",
                cut.where,
                f"effective batch {old_effective:g} → {new_effective:g} (micro-batch "
                f"{old_batch:g} → {new_batch:g}, accumulation {old_accumulation:g} → "
                f"{new_accumulation:g}) and the fix does not say it changes",
            )
        )
    return found
