"""The exception tree. User-facing errors subclass built-in types.

    TrainwreckError
    ├── UsageError(ValueError)        bad command-line usage or arguments
    ├── EvidenceError(ValueError)     nothing usable could be read from the inputs
    └── KnowledgeBaseError(ValueError) a pattern file fails its schema or lint

Evidence readers never raise on a bad file: they record a Gap and go on. An
EvidenceError is raised only when, after every input was tried, nothing at all
could be read. The CLI turns any TrainwreckError into one line on stderr and
exit status 2; any other exception is a bug in trainwreck: one line, a hint to
report it, and exit status 3.
"""

from __future__ import annotations


class TrainwreckError(Exception):
    """Base of every error trainwreck raises on purpose."""


class UsageError(TrainwreckError, ValueError):
    """The command line or an argument is wrong."""


class EvidenceError(TrainwreckError, ValueError):
    """Nothing usable could be read from any input."""


class KnowledgeBaseError(TrainwreckError, ValueError):
    """A knowledge-base file does not load or does not pass lint."""


REPORT_HINT = "a bug in trainwreck: please report it (TRAINWRECK_DEBUG=1 shows the traceback)"


def internal_error(error: BaseException) -> str:
    """One line for a bug of ours that cost part of the answer: what was raised, and
    where to report it."""
    text = " ".join(str(error).split())[:200]
    what = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return f"internal error ({what}), {REPORT_HINT}"


def why_not_read(error: BaseException) -> str:
    """An OS error as a few lower-case words ("permission denied"), else its message."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__
