"""When no pattern matches: classify the failure by its structure, ungrounded.

The final exception's type and message, or an analyzer finding, still say what
kind of failure this is. Everything here is marked `[no KB]` by the renderers
and capped at Low confidence.
"""

from __future__ import annotations

from pathlib import PurePath

from trainwreck.context.logged import exception_class
from trainwreck.model import (
    Category,
    Evidence,
    ExceptionRecord,
    Finding,
    Fix,
    Hypothesis,
    SourceRef,
)


def _raised_by(exc: ExceptionRecord) -> str:
    """Who raised it: the innermost frame's library, or the user's own code.

    A DataLoader worker re-raises the user's `__getitem__` error from inside torch;
    the innermost frame of the worker's traceback is the user's line (issue 18).
    """
    if not exc.frames:
        return ""
    innermost = exc.frames[-1]
    if innermost.library:
        return f" raised inside {innermost.library}"
    place = f"{PurePath(innermost.file).name}:{innermost.line}, {innermost.function}"
    return f" raised in your code ({place})"


def _from_exception(exc: ExceptionRecord) -> Hypothesis:
    frame = exc.user_frame or (exc.frames[-1] if exc.frames else None)
    where = f" at {frame.file}:{frame.line} in {frame.function}" if frame else ""
    by = _raised_by(exc)
    first_line = exc.message.splitlines()[0] if exc.message else ""
    return Hypothesis(
        id=f"ungrounded-{exception_class(exc)}",
        title=f"{exc.type}{by}",
        category=exception_class(exc),
        root_cause=f"The run stopped on {exc.type}: {first_line[:200]}",
        mechanism="No knowledge-base page matches this message; "
        f"the failing call is{where or ' unknown'}.",
        confidence="low",
        score=0.1,
        grounded=False,
        evidence=(
            SourceRef(
                source=exc.source, line=exc.message_ref_line, text=f"{exc.type}: {first_line}"[:300]
            ),
        ),
        fixes=(
            Fix(
                action=f"Start from the failing call{where}: check the shapes, dtypes, devices "
                "and values it receives against what it expects.",
                cost="minutes",
            ),
        ),
        discriminator="Re-run the failing step alone with the same inputs and inspect them "
        "just before the call.",
        why_confidence="no knowledge-base page matched; classified from the exception type only",
    )


def _from_finding(finding: Finding) -> Hypothesis:
    category: Category = finding.category or "crash"
    return Hypothesis(
        id=finding.id,
        title=finding.title,
        category=category,
        root_cause=finding.summary,
        mechanism="An analyzer established this from the logs; no knowledge-base page matched it.",
        confidence="low",
        score=0.1,
        grounded=False,
        evidence=finding.evidence[:3],
        values=dict(finding.values),
        fixes=(
            Fix(
                action="Inspect the steps around the evidence lines and rerun from the last "
                "good checkpoint with more frequent logging.",
                cost="hours",
            ),
        ),
        discriminator="Rerun from the last checkpoint before the event and log every step.",
        why_confidence="an analyzer finding without a matching knowledge-base page",
    )


def ungrounded(evidence: Evidence, findings: tuple[Finding, ...]) -> Hypothesis | None:
    """A Low-confidence, `[no KB]` hypothesis from the final exception or a finding."""
    final = evidence.final_exception
    if final is not None:
        return _from_exception(final)
    categorized = [f for f in findings if f.category is not None]
    return _from_finding(categorized[0]) if categorized else None
