"""A regular expression with a nested quantifier: exponential backtracking on a near-miss.

In `([a-z0-9]+\\s?)*` the inner `+` and the outer `*` can split one run of
characters between them in exponentially many ways. Python's `re` tries them
all before it reports that a string does not match, so one input that almost
matches (a sentence ending in punctuation, a long token) keeps a core busy for
minutes or forever: the step, the metric or the preprocessing that calls it
hangs with no error. A group whose contents cannot be empty and cannot overlap
with what follows is safe, and so is one that opens with a required separator
(`(?:\\s[a-z]+)*`); a possessive or atomic group (Python 3.11+) is too.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted

_RE_FUNCTIONS = frozenset(
    {"compile", "match", "fullmatch", "search", "sub", "subn", "findall", "finditer", "split"}
)
# A group (not atomic, not a lookaround) holding a repeated item, itself repeated: (x+y?)*
_NESTED = re.compile(r"\((?!\?[>=!<])[^()]*(?:[+*]|\{\d*,\d*\})[^()]*\)(?:[+*]|\{\d*,\})(?!\+)")


def _pattern(call: ast.Call) -> str | None:
    """The literal pattern of `re.compile(r"...")` and the other `re` functions."""
    name = dotted(call.func)
    if not name.startswith("re.") or name.split(".", 1)[1] not in _RE_FUNCTIONS:
        return None
    first = call.args[0] if call.args else None
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


# A group that opens with one required atom (`\s`, `,`, `[;:]`) before its repeated part:
# each round must consume that separator, so the rounds cannot overlap (`(?:\s[a-z]+)*`).
_SEPARATED = re.compile(r"^\((?:\?:)?(?:\\.|\[[^\]]*\]|[^\\\[(+*?{])(?![+*?{])")


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        pattern = _pattern(call)
        nested = _NESTED.search(pattern) if pattern is not None else None
        if nested is not None and not _SEPARATED.match(nested.group(0)):
            hits.append(tree.hit(call, group=nested.group(0)))
    return hits


DETECTOR = Detector(
    name="regex_nested_quantifier",
    title="A regular expression repeats a group that itself holds a repeated item, which "
    "backtracks exponentially on a near-miss",
    category="hang",
    explain=(
        "{where}: `{code}` repeats `{group}`, a group with its own quantifier: on a string that "
        "almost matches, re tries exponentially many splits and the call does not return"
    ),
    find=_find,
)
