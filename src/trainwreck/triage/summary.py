"""One run diagnosed and reduced to the few fields a fleet report groups on.

`summarize` is the one function every engine runs per run: it returns a small
picklable record instead of the Diagnosis, so a worker sends back a few hundred
bytes and a triage of 10,000 runs never holds 10,000 Diagnoses.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from trainwreck.cases.normalize import words
from trainwreck.cases.records import CASE_PREFIX
from trainwreck.errors import TrainwreckError, internal_error, why_not_read
from trainwreck.model import Diagnosis, Evidence
from trainwreck.pipeline import examine
from trainwreck.triage.discover import newest_mtime

# Hex digits of the hash that names an ungrounded run's error signature: 12 (48 bits) keep
# a chance collision between two of 100,000 distinct signatures near 2e-5 (birthday bound).
SIGNATURE_DIGITS = 12
# Characters of the error line kept as an ungrounded group's cause: one table cell.
CAUSE_CHARS = 160


@dataclass(frozen=True)
class RunSummary:
    """What a fleet report needs of one run; `error` is set when it could not be read."""

    run: str
    mtime: float
    cause_id: str = ""
    cause: str = ""
    confidence: str = ""
    fix: str | None = None
    frameworks: dict[str, str] = field(default_factory=dict)
    error: str | None = None


def signature(evidence: Evidence) -> tuple[str, str]:
    """An id and a line for a run no page or case explains: the final error, normalised.

    Runs of one failure differ in numbers, paths and ranks; `words` drops those,
    so the same error on other machines hashes to the same id.
    """
    final = evidence.final_exception
    if final is not None:
        line = f"{final.type}: {final.message}"
    else:
        roots = [entry.text for entry in evidence.lines if entry.role == "root"]
        line = roots[-1] if roots else (evidence.lines[-1].text if evidence.lines else "")
    key = " ".join(sorted(words(line)))
    digest = hashlib.sha1(key.encode("utf-8"), usedforsecurity=False).hexdigest()
    return f"sig:{digest[:SIGNATURE_DIGITS]}", line.strip()[:CAUSE_CHARS] or "no error line"


def _cause(evidence: Evidence, diagnosis: Diagnosis) -> tuple[str, str]:
    """The page that explains the run, else the confirmed case it resembles, else its error."""
    top = diagnosis.hypotheses[0] if diagnosis.hypotheses else None
    if top is not None and diagnosis.grounding == "kb":
        return top.id, top.title
    if diagnosis.similar_cases:
        case = diagnosis.similar_cases[0]
        return f"{CASE_PREFIX}{case.id}", case.cause
    return signature(evidence)


def summarize(run: str) -> RunSummary:
    """Diagnose one run (a folder or a log file) and keep only its summary."""
    try:
        mtime = newest_mtime(run)
    except OSError as error:
        return RunSummary(run=run, mtime=0.0, error=why_not_read(error))
    try:
        evidence, diagnosis = examine([run])
    except TrainwreckError as error:
        return RunSummary(run=run, mtime=mtime, error=str(error))
    except Exception as error:  # a bug of ours on one run must not end a fleet's triage
        return RunSummary(run=run, mtime=mtime, error=internal_error(error))
    cause_id, cause = _cause(evidence, diagnosis)
    top = diagnosis.hypotheses[0] if diagnosis.hypotheses else None
    return RunSummary(
        run=run,
        mtime=mtime,
        cause_id=cause_id,
        cause=cause,
        confidence=top.confidence if top else "low",
        fix=top.fixes[0].action if top and top.fixes else None,
        frameworks=dict(diagnosis.setup.frameworks),
        error=None,
    )
