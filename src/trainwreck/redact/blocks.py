"""PEM private keys: a block of lines between BEGIN and END markers, every line a secret.

No line of a key's body says what it is, so the body is known only from the
markers around it. A text that holds a whole block (a config value, a pasted
log) has every word of its body replaced; a log read line by line keeps, in
`KeyBlockLines`, which line numbers lie inside a block, because the lines it
retains are not contiguous. detect-secrets' PrivateKeyDetector looks for the
same markers, but flags only the marker line.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from trainwreck.redact.rules import placeholder

KEY_TRIGGER = "private key"  # lowercase, in every marker this module knows
KEY_PLACEHOLDER = placeholder("private-key")
_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_END = re.compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_BODY_WORD = re.compile(r"\S+")
_MARKER = re.compile(rb"-----(BEGIN|END) (?:[A-Z0-9]+ )*PRIVATE KEY")


def redact_key_blocks(text: str) -> str:
    """Each word of a key's body becomes a placeholder; lines and indentation stay.

    A block without its END marker (a truncated paste) runs to the end of `text`.
    """
    pieces: list[str] = []
    last = 0
    for begin in _BEGIN.finditer(text):
        if begin.start() < last:
            continue  # a BEGIN inside the body of an unterminated block
        end = _END.search(text, begin.end())
        stop = end.start() if end else len(text)
        body = text[begin.end() : stop]
        pieces += (text[last : begin.end()], _BODY_WORD.sub(KEY_PLACEHOLDER, body))
        last = stop
    return "".join((*pieces, text[last:])) if pieces else text


class KeyBlockLines:
    """The line numbers inside private-key blocks of a log read in chunks.

    The scanner feeds every chunk (so a block is found whichever of its lines are
    kept), and asks about each line it keeps.
    """

    def __init__(self) -> None:
        self.blocks: list[tuple[int, int]] = []  # (BEGIN line, END line), in order
        self.open_since: int | None = None  # a BEGIN whose END has not come yet

    def feed(self, chunk: bytes, first_line: int) -> None:
        """Record the markers in `chunk`, whose first line has number `first_line`."""
        if b"PRIVATE KEY" not in chunk:
            return
        counted, line = 0, first_line
        for marker in _MARKER.finditer(chunk):
            line += chunk.count(b"\n", counted, marker.start())
            counted = marker.start()
            if marker.group(1) == b"BEGIN":
                self.open_since = line if self.open_since is None else self.open_since
            elif self.open_since is not None:
                self.blocks.append((self.open_since, line))
                self.open_since = None

    def __bool__(self) -> bool:
        """Whether any block was found: most logs hold none, and need no lookups."""
        return bool(self.blocks) or self.open_since is not None

    def covers(self, line: int) -> bool:
        """Whether line `line` is a key's body line (the marker lines themselves are not)."""
        if self.open_since is not None and line > self.open_since:
            return True
        before = bisect_left(self.blocks, (line,)) - 1  # the last block that begins earlier
        return before >= 0 and line < self.blocks[before][1]
