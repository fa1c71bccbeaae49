"""The events of a Chrome trace JSON (`{"traceEvents": [...]}`), one at a time.

A torch.profiler trace can be hundreds of MB; parsed whole it would take several times
that in Python objects. Here the text is decoded in 1 MiB pieces and each event object is
parsed on its own with the standard library's C decoder (`raw_decode`), so memory holds
one piece and one event; the keys before the event list (device properties, rank) are
parsed once as the header. Damage (a truncated file, an event that is not JSON) ends the
events early and says why in `error`, never raises.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import Protocol

from trainwreck.evidence.structured import load_json
from trainwreck.limits import MIB

PIECE_BYTES = MIB
# Where the event list must start: Kineto writes its header (device properties of every
# GPU on the node, ~400 bytes each, and the rank's process groups) before it, a few KiB.
MAX_HEADER_CHARS = 4 * MIB
# One event's text: a kernel with its launch arguments is under 2 KiB, an operator with
# recorded shapes of a thousand inputs tens of KiB; past this it is not an event we read.
MAX_EVENT_CHARS = 16 * MIB
_KEY = '"traceEvents"'
_BETWEEN = re.compile(r"[\s,]*")
_DECODER = json.JSONDecoder()


class Readable(Protocol):
    """A byte stream: a file, a gzip file, or the reader's SafeStream."""

    def read(self, size: int, /) -> bytes: ...


class TraceEvents:
    """Iterate the events of one trace stream; `header` and `error` are set as it reads."""

    def __init__(self, stream: Readable) -> None:
        self._stream = stream
        self._decode = codecs.getincrementaldecoder("utf-8")("replace")
        self._eof = False
        self.header: dict[str, object] = {}
        self.error: str | None = None

    def _more(self) -> str:
        """The next decoded piece, or "" at the end of the stream."""
        if self._eof:
            return ""
        data = self._stream.read(PIECE_BYTES)
        self._eof = not data
        return self._decode.decode(data, final=self._eof)

    def _start(self) -> tuple[str, int] | None:
        """The text read so far and where the event list begins in it; the header parsed."""
        text = ""
        while True:
            key = text.find(_KEY)
            bracket = text.find("[", key) if key >= 0 else -1
            if bracket >= 0:
                self.header = _header(text[:key])
                return text, bracket + 1
            if len(text) > MAX_HEADER_CHARS or self._eof:
                self.error = "no traceEvents list near the start; not a Chrome trace"
                return None
            text += self._more()

    def __iter__(self) -> Iterator[dict[str, object]]:
        start = self._start()
        if start is None:
            return
        text, at = start
        while True:
            at = _BETWEEN.match(text, at).end()  # type: ignore[union-attr]
            if at < len(text) and text[at] == "]":
                return
            parsed = _event(text, at) if at < len(text) else None
            if parsed is not None:
                event, at = parsed
                if isinstance(event, dict):
                    yield event
                continue
            if self._eof or len(text) - at > MAX_EVENT_CHARS:
                self.error = (
                    "the trace ends inside its event list (truncated?)"
                    if self._eof
                    else f"an event longer than {MAX_EVENT_CHARS // MIB} MiB, or not JSON"
                )
                return
            text, at = text[at:] + self._more(), 0


def _event(text: str, at: int) -> tuple[object, int] | None:
    """One JSON object parsed at `at`, with where it ends; None when incomplete or bad."""
    if text[at] != "{":
        return None
    try:
        return _DECODER.raw_decode(text, at)
    except (ValueError, RecursionError):
        return None


def _header(prefix: str) -> dict[str, object]:
    """The top-level keys written before `"traceEvents"`, or {} if they do not parse."""
    body = prefix.strip().rstrip(",")
    try:
        data = load_json(body + "}") if body.startswith("{") else None
    except ValueError:  # bad JSON, or past the nesting limit (LimitExceeded)
        return {}
    return data if isinstance(data, dict) else {}
