"""The report auditor: checks a finished report against its own numbers and context.

A report is audited as a user reads it: does fix 1 reach the goal the report's own
arithmetic states, does it keep the effective batch, do its before values match
the evidence, does it set what the diagnosis blames, does each block parse, does it
name a framework the run never used, is anything left unfilled. Each rule is a small
function of one `Audited` report returning `AuditFinding`s; the markdown-only rules
(`MARKDOWN_RULES`) need no Diagnosis, so any answer's text can be checked with them.
"""

from __future__ import annotations

from trainwreck.model import Diagnosis
from trainwreck.report.audit.base import Audited, AuditFinding, Rule
from trainwreck.report.audit.batch import batch_cut_keeps_effective_batch
from trainwreck.report.audit.before import before_matches_evidence
from trainwreck.report.audit.blocks import blocks_parse, no_duplicate_keys
from trainwreck.report.audit.cause import advice_is_not_the_cause
from trainwreck.report.audit.frameworks import frameworks_in_context
from trainwreck.report.audit.goals import fix_reaches_goal
from trainwreck.report.audit.placeholders import no_placeholders
from trainwreck.report.audit.ranking import alternatives_supported, hypotheses_in_order

__all__ = ["DIAGNOSIS_RULES", "MARKDOWN_RULES", "AuditFinding", "Audited", "audit"]

# Rules that read the text alone: (f) blocks parse, (h) placeholders, (i) duplicate keys.
MARKDOWN_RULES: tuple[Rule, ...] = (blocks_parse, no_placeholders, no_duplicate_keys)
# Rules that read the Diagnosis's structured fields, (a) to (e) and (g).
DIAGNOSIS_RULES: tuple[Rule, ...] = (
    hypotheses_in_order,
    alternatives_supported,
    fix_reaches_goal,
    batch_cut_keeps_effective_batch,
    before_matches_evidence,
    advice_is_not_the_cause,
    frameworks_in_context,
)


def audit(diagnosis: Diagnosis | None, markdown: str) -> list[AuditFinding]:
    """Every rule's findings on one report; only the markdown rules when `diagnosis` is None."""
    report = Audited(diagnosis, markdown)
    rules = MARKDOWN_RULES if diagnosis is None else (*DIAGNOSIS_RULES, *MARKDOWN_RULES)
    return [finding for rule in rules for finding in rule(report)]
