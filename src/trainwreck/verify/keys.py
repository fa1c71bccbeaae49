"""Why a key is not accepted: renamed, removed, added later, on another class, or a typo.

The order matters: a key's own history in the user's framework is the most
specific explanation, then a class that does have it, then the closest spelling.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from functools import cache

from trainwreck.verify.history import key_history
from trainwreck.verify.model import ClassSchema, Problem
from trainwreck.verify.snapshots import FRAMEWORKS, load, versions

STRICT_CUTOFF = 0.75  # the user named the framework: every unknown key is reported
DETECTED_CUTOFF = 0.8  # a detected framework: only keys that are near-misses of a field
LENIENT_CUTOFF = 0.9  # mixed recipes, whose own keys (dataset, template) are no typos


@cache
def _owners_index() -> dict[str, tuple[tuple[str, str], ...]]:
    """key -> every (framework, class) that accepts it in any snapshot."""
    index: dict[str, dict[tuple[str, str], None]] = {}
    for framework in FRAMEWORKS:
        for version in versions(framework):
            for name, cls in load(framework, version).classes.items():
                for key in cls.names():
                    index.setdefault(key, {})[(framework, name)] = None
    return {key: tuple(owners) for key, owners in index.items()}


def owners(key: str) -> tuple[tuple[str, str], ...]:
    return _owners_index().get(key, ())


def closest(key: str, names: Iterable[str], cutoff: float = STRICT_CUTOFF) -> str | None:
    found = difflib.get_close_matches(key, sorted(names), n=1, cutoff=cutoff)
    return found[0] if found else None


def _history_problem(
    key: str, cls: ClassSchema, history_of: Iterable[tuple[str, str]], version_of: Mapping[str, str]
) -> Problem | None:
    for framework, class_name in history_of:
        version = version_of.get(framework)
        if version is None:
            continue
        history = key_history(framework, class_name, key)
        where = f"{framework} {class_name}"
        if history.before(version):
            last, gone = history.present_in[-1], history.removed_in()
            span = f"last accepted in {last}" + (f", gone by {gone}" if gone else "")
            if history.replaced_by:
                return Problem(
                    "renamed",
                    key,
                    f"`{key}` was renamed to `{history.replaced_by}` in {where}; "
                    f"{framework} {version} does not accept the old name ({span})",
                    history.replaced_by,
                )
            return Problem(
                "removed",
                key,
                f"`{key}` was removed from {where}; {framework} {version} does not accept it "
                f"({span})",
                closest(key, cls.names()),
            )
        if history.after(version):
            first = history.present_in[0]
            return Problem(
                "not-yet",
                key,
                f"`{key}` is new in {where} {first}; {framework} {version} does not have it",
                f"upgrade {framework} to >= {first}",
            )
    return None


def _distance(a: str, b: str, limit: int) -> int:
    """Edits between short keys (insert, delete, substitute, swap two neighbours), each 1:
    `max_grad_nrom` is one slip of the fingers from `max_grad_norm`, not two.

    Past `limit` the count stops at limit + 1: once two rows in a row exceed it, every
    later cell does too (a cell builds on the row above or, by a swap, the one before).
    """
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > limit and min(previous) > limit:
            return limit + 1
        before, previous = previous, current
    return previous[-1]


def typo_of(key: str, names: Iterable[str]) -> str | None:
    """A field `key` is a misspelling of: a few letters off, the same number of words.

    Used when the framework was detected rather than named: a recipe's own keys
    (`chat_template` beside `chat_template_path`, `dataset_mixer` beside
    `dataset_name`) are other settings, not typos, and must stay quiet.
    """
    bound = max(1, len(key) // 8)
    words = key.count("_")
    names = sorted(names)
    if not any(_within(key, name, words, bound) for name in names):
        return None  # the common case, without difflib's costly ratios over every field
    for candidate in difflib.get_close_matches(key, names, n=5, cutoff=0.6):
        if _within(key, candidate, words, bound):
            return candidate
    return None


def _within(key: str, name: str, words: int, bound: int) -> bool:
    """`name` has as many words as `key` and is at most `bound` edits from it; the length
    difference, a lower bound of the edits, is checked first because it is cheap."""
    return (
        abs(len(name) - len(key)) <= bound
        and name.count("_") == words
        and _distance(key, name, bound) <= bound
    )


def _class_label(owner: tuple[str, str]) -> str:
    return f"{owner[0]} {owner[1]}"


def explain_unknown(
    key: str,
    cls: ClassSchema,
    version_of: Mapping[str, str],
    history_of: Iterable[tuple[str, str]],
    strict: bool = True,
    cutoff: float = STRICT_CUTOFF,
    search: bool = True,
) -> Problem | None:
    """A problem for `key`, which `cls` lacks; None when a lenient check has nothing sure.
    Without `search` (past MAX_TYPO_KEYS) no close spelling is looked for."""
    found = _history_problem(key, cls, history_of, version_of)
    if found is not None:
        return found
    elsewhere = [o for o in owners(key) if o[1] != cls.name and o[0] in ("trl", "transformers")]
    if elsewhere and cls.framework in ("trl", "transformers") and cutoff < LENIENT_CUTOFF:
        labels = " / ".join(_class_label(o) for o in elsewhere)
        return Problem(
            "wrong-class",
            key,
            f"`{key}` is a field of {labels}, not of {cls.framework} {cls.name}",
            f"use {elsewhere[0][1]} (or drop `{key}`)",
        )
    near = None
    if search:
        near = closest(key, cls.names(), cutoff) if strict else typo_of(key, cls.names())
    version = version_of.get(cls.framework)
    label = f"{cls.framework} {version} {cls.name}" if version else cls.name
    if near is not None:
        return Problem(
            "unknown-key", key, f"`{key}` is not a field of {label}; did you mean `{near}`?", near
        )
    if strict:
        return Problem("unknown-key", key, f"`{key}` is not a field of {label}")
    return None


def deprecated_problem(key: str, cls: ClassSchema, version: str) -> Problem | None:
    field = cls.get(key)
    if field is None or not field.deprecated:
        return None
    instead = f"; use `{field.replaced_by}`" if field.replaced_by else ""
    return Problem(
        "deprecated",
        key,
        f"`{key}` is deprecated in {cls.framework} {version} {cls.name}{instead}",
        field.replaced_by,
        severity="warning",
    )
