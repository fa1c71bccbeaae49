"""Small text helpers shared by the readers: line decoding, ANSI stripping, redaction.

Every line or message an evidence reader stores goes through `clean()`, so no
secret in a user's log (a Hugging Face token, an API key) ever reaches a model
object, and from there a report.
"""

from __future__ import annotations

import re

from trainwreck.redact import redact

MAX_LINE_BYTES = 4096
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def decode_line(raw: bytes) -> str:
    """Decode one line, capped at MAX_LINE_BYTES, replacing invalid UTF-8."""
    if len(raw) > MAX_LINE_BYTES:
        raw = raw[:MAX_LINE_BYTES]
    return raw.decode("utf-8", "replace").rstrip("\r\n")


def strip_ansi(text: str) -> str:
    """Drop terminal colour/cursor codes so patterns see the plain text."""
    return ANSI_RE.sub("", text) if "\x1b" in text else text


def clean(text: str) -> str:
    """Redact secrets from a string before it is stored in evidence."""
    return redact(text)
