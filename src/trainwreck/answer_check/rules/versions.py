"""`inexact-version`: "latest", "recent" or "2.x" is not a version a fix can be checked against.

Keys, defaults and known bugs differ between minor releases (DESIGN principle 6), so
a package's version is named exactly. Read in the prose of the regions that state
or recommend a version (_PATTERNS); code blocks are code.
"""

from __future__ import annotations

import re
from typing import get_args

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleResult
from trainwreck.answer_check.parse import Answer
from trainwreck.answer_check.rules.base import fail
from trainwreck.kb.schema import Framework

_PACKAGES = "|".join(
    re.escape(name) for name in sorted({*get_args(Framework), "torch"}, key=len, reverse=True)
)
_PACKAGE = rf"`?(?:{_PACKAGES})`?"
_VAGUE = r"(?:latest|newest|most recent|recent|current|nightly)"
_VAGUE_PACKAGE = (
    rf"\b{_VAGUE}\s+(?:(?:stable\s+)?(?:version|release)s?\s+of\s+)?{_PACKAGE}(?![\w-])"
    rf"|(?<![\w-]){_PACKAGE}\s+(?:version\s+)?{_VAGUE}\b"
)
_FAMILY = rf"(?<![\w-]){_PACKAGE}\s*(?:==|>=|~=|v|\s)?\s*`?\d+(?:\.\d+)*\.[xX*]\b"
_VAGUE_ONLY = re.compile(_VAGUE_PACKAGE, re.IGNORECASE)
_INEXACT = re.compile(f"{_VAGUE_PACKAGE}|{_FAMILY}", re.IGNORECASE)
_VERSION_WORDS = re.compile(rf"\b{_VAGUE}\b|\b\d+(?:\.\d+)*\.[xX*]\b", re.IGNORECASE)
# Per region, what reads as an inexact version. The versions region states the user's own:
# any vague word or `.x`. Fixes recommend one: a vague word or a family (`2.x`) beside a
# package. The root cause names the user's: a vague word beside a package (a family there
# is the fact itself: "built against the NumPy 1.x C API"). The mechanism is left out: it
# tells how the failure arises across releases ("CUDA 10.x's nvcc", "recent PyTorch").
_PATTERNS: dict[str, re.Pattern[str]] = {
    "versions": _VERSION_WORDS,
    "fix": _INEXACT,
    "config": _INEXACT,
    "verify": _INEXACT,
    "root_cause": _VAGUE_ONLY,
    "diagnosis": _VAGUE_ONLY,
}


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    found = []
    for region in answer.regions:
        pattern = _PATTERNS.get(region.kind)
        if pattern is None:
            continue
        for line in region.prose():
            match = pattern.search(line.text)
            if match:
                found.append(
                    fail(
                        "inexact-version",
                        line.number,
                        f"{match.group(0).strip()!r} is not an exact version",
                    )
                )
    return found
