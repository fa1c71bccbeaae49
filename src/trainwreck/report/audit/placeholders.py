"""Rule (h): template leftovers a reader would take for real values.

A KB sentence whose named value the evidence lacked is filled with "the <name>"
(`fixes.verify.fill_text`), so "(the model shape)" or "the mat1 cols" stands where
a number belongs; a version template keeps `X.Y`; a fill-in stays `<your value>`.
Evidence quotes are the user's text and are not checked.
"""

from __future__ import annotations

import re

from trainwreck.redact import PLACEHOLDER_PREFIX
from trainwreck.report.audit.base import Audited, AuditFinding
from trainwreck.report.audit.text import prose_lines

# What a named value's fallback reads like: "(the model shape)", "the mat1 cols".
_UNIT_WORDS = r"(?:shape|cols|rows|size|dims?|version|value|count|index|dtype|length|limit)"
# Digits that belong to a word ("fp32 value") rather than to a tensor's name ("mat1 cols").
_DTYPE = r"(?:fp|bf|int|uint|float|tf)\d"
# Names Python itself prints in angle brackets (`main.<locals>.<lambda>`, `<AddBackward0>`).
_PYTHON_REPR = (
    r"(?:lambda|locals|module|listcomp|dictcomp|setcomp|genexpr|stdin|string|\w+Backward\d*)>"
)
# Tokenizers' own special tokens, which reports name as they are ("starts with <s>"), and the
# reasoning models' <think> and <answer> tags.
_SPECIAL_TOKEN = r"(?:s|pad|unk|mask|bos|eos|cls|sep|think|answer)>"
_FILL_IN = rf"<(?!https?:|{_PYTHON_REPR}|{_SPECIAL_TOKEN})[A-Za-z][\w .,'-]{{0,40}}>"
_LEFTOVERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a version template", re.compile(r"(?<![\w.])X\.Y(?:\.Z)?(?![\w])|==\s*X\b")),
    ("an angle-bracket fill-in", re.compile(_FILL_IN)),
    ("a named value's fallback", re.compile(rf"\(the [a-z]+\d*(?: [a-z]+\d*)? {_UNIT_WORDS}\)")),
    ("a named value's fallback", re.compile(rf"\bthe (?!{_DTYPE})[a-z]+\d+ {_UNIT_WORDS}\b")),
)


def no_placeholders(report: Audited) -> list[AuditFinding]:
    """Every unfilled template the report's own prose and code carry, once per line."""
    found = []
    for number, line in prose_lines(report.markdown):
        for kind, pattern in _LEFTOVERS:
            matches = pattern.finditer(line)
            match = next((m for m in matches if not m[0].startswith(PLACEHOLDER_PREFIX)), None)
            if match is not None:
                found.append(
                    AuditFinding("placeholder", f"markdown:{number}", f"{kind}: {match.group(0)!r}")
                )
                break
    return found
