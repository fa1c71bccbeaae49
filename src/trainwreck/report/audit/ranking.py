"""Rule (a): hypotheses shown best first, and alternatives that belong to this run."""

from __future__ import annotations

from itertools import pairwise

from trainwreck.engine.shown import classes_beside
from trainwreck.report.audit.base import Audited, AuditFinding


def hypotheses_in_order(report: Audited) -> list[AuditFinding]:
    """Each hypothesis scores no higher than the one shown before it."""
    hypotheses = report.diagnosis.hypotheses if report.diagnosis else ()
    return [
        AuditFinding(
            "hypothesis-order",
            f"hypotheses[{index}] ({later.id})",
            f"score {later.score:.2f} is shown after {earlier.id} at {earlier.score:.2f}",
        )
        for index, (earlier, later) in enumerate(pairwise(hypotheses), start=1)
        if later.score > earlier.score
    ]


def alternatives_supported(report: Audited) -> list[AuditFinding]:
    """Under a grounded top answer, an alternative quotes the run's evidence or shares
    its class or the class the user states.

    An alternative with neither is a page that ranked on shared words alone: noise a
    reader has to rule out by hand. A report on the user's words alone (no file read)
    is exempt: there every class is a guess.
    """
    top = report.top
    if report.diagnosis is None or top is None or not top.grounded:
        return []
    if not report.diagnosis.inputs:  # the user's words alone: every class is a guess
        return []
    classes = classes_beside(report.diagnosis.hypotheses, report.diagnosis.context)
    return [
        AuditFinding(
            "alternative-unsupported",
            f"hypotheses[{index}] ({alternative.id})",
            f"no evidence quoted and class {alternative.category} is neither the top "
            f"answer's {top.category} nor the stated one",
        )
        for index, alternative in enumerate(report.diagnosis.hypotheses[1:], start=1)
        if not alternative.evidence and alternative.category not in classes
    ]
