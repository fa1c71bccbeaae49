"""Small text helpers shared by the readers: line decoding, redaction.

Every line or message an evidence reader stores goes through `clean()`, so no
secret in a user's log (a Hugging Face token, an API key) ever reaches a model
object, and from there a report.
"""

from __future__ import annotations

from trainwreck.redact import redact

MAX_LINE_BYTES = 4096


def decode_line(raw: bytes) -> str:
    """Decode one line, capped at MAX_LINE_BYTES, replacing invalid UTF-8."""
    if len(raw) > MAX_LINE_BYTES:
        raw = raw[:MAX_LINE_BYTES]
    return raw.decode("utf-8", "replace").rstrip("\r\n")


def clean(text: str) -> str:
    """Redact secrets (and neutralise terminal control) before a string is stored in evidence."""
    return redact(text)
