"""A library's own check refused the run's settings, and its message says which.

`ValueError: sampler option is mutually exclusive with shuffle` raised inside
torch's DataLoader, `lr_scheduler_type reduce_lr_on_plateau requires an eval
strategy` raised inside TrainingArguments: the library validated a combination
of arguments before doing any work, and its message names both sides. That
message is the cause in the library author's words, so when no page knows the
check, the finding still says what to change, and it outranks pages that only
share a word with the symptoms. The exception must be raised in a library frame
(the user's own `raise` is the user's check, not a refusal of a setting) and be a
type libraries use for bad arguments; tensor shape, size and device messages
are data that reached a kernel, which the shape and device pages read.
"""

from __future__ import annotations

import re

from trainwreck.model import Evidence, ExceptionRecord, Finding, SourceRef

FINDING_ID = "library.refused_setting"
FINDING_IDS: tuple[str, ...] = (FINDING_ID,)

# The exception types libraries raise for an argument they refuse (argparse-style and
# pydantic validation have their own pages; a RuntimeError is mostly a kernel's).
_ARGUMENT_ERRORS = re.compile(
    r"(?:^|\.)(?:ValueError|AssertionError|NotImplementedError|\w*Config\w*Error)$"
)
# How a check states the relation it refuses.
_REFUSAL = re.compile(
    r"(?i)\brequires?\b|\bmust (?:be|have|not|match|equal|divide|set)\b|mutually exclusive|"
    r"\bcan(?:not|'t| not) be (?:used|combined|set|enabled|specified|passed|true)\b|"
    r"\bonly (?:be )?(?:supported|works?|makes sense|available|compatible|allowed|valid)\b|"
    r"\b(?:is|are) not (?:supported|compatible|allowed|valid)\b|\bincompatible with\b|"
    r"\bshould (?:be|not be|only be) (?:set|one of|used|divisible|less|greater|at least)\b|"
    r"\bplease (?:set|use|specify|pass|provide)\b|\byou (?:need|must|should|have) to\b|"
    r"\bnot allowed\b|\binvalid (?:value|argument|option|choice|combination)\b"
)
# Data that reached a kernel, not a setting: shapes, sizes, devices, dtypes.
_DATA = re.compile(
    r"(?i)\b(?:shapes?|sizes?|dimensions?|dims?|tensors?|devices?|dtypes?|batch_size \(\d)\b"
)
MAX_MESSAGE = 200


def _refusal(exc: ExceptionRecord) -> str | None:
    """The first line of a library's refusal of a setting, or None."""
    if not exc.frames or exc.frames[-1].library in (None, "python"):
        return None
    if not _ARGUMENT_ERRORS.search(exc.type):
        return None
    first = exc.message.strip().splitlines()[0] if exc.message.strip() else ""
    if not _REFUSAL.search(first) or _DATA.search(first):
        return None
    return first[:MAX_MESSAGE]


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding for the first exception that is a library refusing a setting."""
    for exc in evidence.exceptions:
        message = _refusal(exc)
        if message is None:
            continue
        library = str(exc.frames[-1].library)
        check = exc.frames[-1].function or "its argument check"
        title = f"{library} refused the run's settings in {check}: {message}"
        return [
            Finding(
                id=FINDING_ID,
                title=title,
                category="config_error",
                summary=title,
                evidence=(
                    SourceRef(
                        source=exc.source,
                        line=exc.message_ref_line,
                        text=f"{exc.type}: {message}",
                    ),
                ),
                values={"library": library, "check": check, "refusal": message},
            )
        ]
    return []
