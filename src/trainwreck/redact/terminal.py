"""Terminal control in what a user hands in is shown as text, never obeyed by a terminal.

Logs hold colour codes (rich, colorlog, pygments tracebacks, `tput`), cursor
moves, OSC 8 hyperlinks and OSC 52 clipboard writes; file names and pasted text
can hold bells, backspaces and bidirectional overrides. Printed raw into a
report or an agent's answer, a terminal would obey them: recolour or erase
lines, show a link to somewhere other than its text, overwrite the clipboard,
hide text behind backspaces or reorder it (Trojan Source). So escape and
control-string sequences are removed (a terminal never shows their bytes, and
patterns must see the plain text between them), and any other control
character is written as a visible escape (`\\x07`, `\\u202e`).

Sequence grammar: ECMA-48 (5th edition, 1991) sections 5.3-5.6 and 8.3.89 for
the 7-bit and 8-bit introducers; OSC strings also end at BEL, as xterm accepts.
"""

from __future__ import annotations

import re

# A control string (OSC, DCS, SOS, PM, APC) runs to its terminator: ST (ESC \ or
# 0x9c) or BEL; an unterminated one is dropped to the end of its line.
_STRING_BODY = r"[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, screen clears
    rf"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]){_STRING_BODY}"  # OSC 8/52, DCS, SOS, PM, APC
    r"|\x1b[ -/]+[0-~]"  # nF: character-set selection, e.g. `tput sgr0`'s ESC ( B
    r"|\x1b[0-~]"  # Fp/Fe/Fs: save/restore cursor, index, reset
)
# What remains that a terminal would act on: C0 controls but tab and newline, a
# carriage return not ending a line, DEL, C1 controls, and the bidi embeddings,
# overrides and isolates (Unicode TR 9; CVE-2021-42574); and lone surrogates (a JSON
# "\udc80" escape, bytes kept by surrogateescape), which no UTF-8 output can encode.
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]|\r(?!\n)"
)
# Every character either pattern can start with: one cheap test for the common case.
_ANY = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def strip_sequences(text: str) -> str:
    """`text` without escape and control-string sequences: what a terminal shows of it."""
    return SEQUENCE.sub("", text) if _ANY.search(text) else text


def neutralise(text: str) -> str:
    """`text` safe to print on a terminal: sequences removed, other controls escaped.

    Tabs, newlines and CRLF line ends stay; applying it twice changes nothing.
    """
    if not _ANY.search(text):
        return text
    return _CONTROL.sub(_escaped, SEQUENCE.sub("", text))


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
