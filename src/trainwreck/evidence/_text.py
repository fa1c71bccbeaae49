"""Small text helpers shared by the readers: ANSI stripping and redaction.

Every line or message an evidence reader stores goes through `clean()`, so no
secret in a user's log (a Hugging Face token, an API key) ever reaches a model
object, and from there a report.
"""

from __future__ import annotations

import re

from trainwreck.redact import redact

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def strip_ansi(text: str) -> str:
    """Drop terminal colour/cursor codes so patterns see the plain text."""
    return ANSI_RE.sub("", text) if "\x1b" in text else text


def clean(text: str) -> str:
    """Redact secrets from a string before it is stored in evidence."""
    return redact(text)
