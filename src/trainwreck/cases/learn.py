"""A resolved incident turned into a case record for the team's store.

The evidence lines are the run's errors as trainwreck read them (already
redacted where they entered); the cause and fix are the user's words, redacted
again since they are free text. The class is the one given, else the one the
symptoms or the final exception state.
"""

from __future__ import annotations

import hashlib
from datetime import date

from trainwreck.cases.query import error_lines
from trainwreck.cases.records import CaseRecord
from trainwreck.errors import UsageError
from trainwreck.model import Category, Evidence, RunContext
from trainwreck.redact import redact

MAX_EVIDENCE_LINES = 12  # as many as a collected record keeps


def learned_record(
    evidence: Evidence,
    context: RunContext,
    *,
    cause: str,
    fix: str | None,
    link: str | None,
    category: Category | None,
) -> CaseRecord:
    """The record `trainwreck learn` stores; UsageError when nothing identifies the failure."""
    lines = list(dict.fromkeys(ref.text.strip() for ref in error_lines(evidence)))
    if not lines:
        raise UsageError("no error line found in the evidence; nothing to learn from")
    stated = context.stated or context.logged
    chosen = category or (stated.category if stated else None)
    if chosen is None:
        raise UsageError("the evidence states no failure class; give --category")
    text = "\n".join(redact(line) for line in lines[-MAX_EVIDENCE_LINES:])
    digest = hashlib.sha256(f"{text}\n{cause}".encode()).hexdigest()[:12]
    inputs = ", ".join(f.path for f in evidence.files) or "symptoms"
    return CaseRecord(
        id=f"team-{digest}",
        source=redact(link) if link else f"learned from {inputs}",
        confirmed_by="team",
        category=chosen,
        frameworks={name: context.versions.get(name) for name in context.frameworks},
        hardware=context.hardware,
        symptoms=evidence.symptoms,
        evidence=text,
        cause=redact(" ".join(cause.split())),
        fix=redact(" ".join(fix.split())) if fix else None,
        collected=f"trainwreck learn, {date.today().isoformat()}",
    )
