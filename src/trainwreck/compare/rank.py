"""Rank changes by what the knowledge base knows each can cause.

A change scores `1 - prod(1 - weight)` over the pages that know it (the engine's way of
combining evidence, docs/architecture.md): a package version that enters a page's
known-bug range weighs most; a config key or flag a page's fix changes weighs more than
one its keywords only name, and most when that fix would move the key back towards
GOOD's value. When the curves show BAD leaving GOOD's band, pages of the failure class
that departure shows count in full and the others less. A change back to the framework's
default is less likely to break a run than a departure from it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace

from trainwreck.compare.model import Change, Departure
from trainwreck.env.known_bugs import known_bugs
from trainwreck.env.model import Environment, normalise
from trainwreck.fixes.compare import number
from trainwreck.fixes.targets import target
from trainwreck.kb import KnowledgeBase

# A page's `affected` range with a fixed_in release holds BAD's version and not GOOD's:
# the page documents a bug this very change brings in.
KNOWN_BUG_ENTERED = 0.9
# A page's fix changes this key in the direction that undoes the change (GOOD 1e-3, BAD 1.0,
# fix "lower"): the page describes what this change does.
FIX_UNDOES_CHANGE = 0.6
# A page's fix changes this key (direction unstated, or the same way as the change).
FIX_NAMES_KEY = 0.3
# A page's keywords name the key (`learning rate` for learning_rate): mentioned, not acted on.
KEYWORD_NAMES_KEY = 0.15
# A page names the package in an `affected` range that BAD's version is not inside.
PAGE_NAMES_PACKAGE = 0.1
# Pages outside the failure class the curves' departure shows keep this share of their
# weight: they know the key, but not as a cause of what BAD's curve did.
OFF_SYMPTOM_FACTOR = 0.5
# A change to the framework's default value keeps this share of its score.
TO_DEFAULT_FACTOR = 0.5
# What a change no page knows scores, so it is still listed, below every known one.
UNKNOWN_SCORE = 0.01
# Page ids shown per change, strongest first.
MAX_PAGES = 5
# The failure classes each kind of departure shows (the categories of DESIGN.md).
SYMPTOM_CLASSES = {
    "above": frozenset({"divergence", "nan_inf"}),
    "non-finite": frozenset({"nan_inf", "divergence"}),
    "below": frozenset(),
}


@dataclass(frozen=True)
class Knowledge:
    """The KB read once for ranking: which pages name each key, and each page's class."""

    fixes: dict[str, list[tuple[str, str | None]]]  # key -> (page, fix direction)
    keywords: dict[str, list[str]]  # key spelled with underscores -> pages
    packages: dict[str, list[str]]  # package -> pages with an affected range for it
    category: dict[str, str]


def knowledge(kb: KnowledgeBase) -> Knowledge:
    """Index the pages by the keys their fixes change, their keywords and affected packages."""
    fixes: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
    keywords: dict[str, list[str]] = defaultdict(list)
    packages: dict[str, list[str]] = defaultdict(list)
    for page in kb.patterns:
        for fix in page.fixes:
            for change in fix.changes:
                fixes[target(change.path).leaf].append((page.id, change.direction))
        for keyword in page.keywords:
            keywords[keyword.strip().lower().replace(" ", "_")].append(page.id)
        for affected in page.affected:
            packages[normalise(affected.package)].append(page.id)
    category: dict[str, str] = {page.id: page.category for page in kb.patterns}
    return Knowledge(dict(fixes), dict(keywords), dict(packages), category)


def _undoes(direction: str | None, change: Change) -> bool:
    """Whether a fix moving the key `direction` would take BAD's value back towards GOOD's."""
    before, after = number(change.before), number(change.after)
    if direction not in ("lower", "higher") or before is None or after is None:
        return False
    return after > before if direction == "lower" else after < before


def _setting_weights(change: Change, known: Knowledge) -> dict[str, float]:
    """Each page that knows a config key or flag, with its weight (the strongest reason)."""
    leaf = target(change.key).leaf
    weights: dict[str, float] = {}
    for page in known.keywords.get(leaf, ()):
        weights[page] = max(weights.get(page, 0.0), KEYWORD_NAMES_KEY)
    for page, direction in known.fixes.get(leaf, ()):
        weight = FIX_UNDOES_CHANGE if _undoes(direction, change) else FIX_NAMES_KEY
        weights[page] = max(weights.get(page, 0.0), weight)
    return weights


def entered_bugs(good: Environment, bad: Environment, kb: KnowledgeBase) -> set[tuple[str, str]]:
    """(package, page) for each known-bug range BAD's versions are in and GOOD's are not."""
    before = {(normalise(b.package), b.page) for b in known_bugs(good, kb)}
    return {(normalise(b.package), b.page) for b in known_bugs(bad, kb)} - before


def _package_weights(
    change: Change, known: Knowledge, entered: set[tuple[str, str]]
) -> dict[str, float]:
    weights = {page: PAGE_NAMES_PACKAGE for page in known.packages.get(change.key, ())}
    weights.update({page: KNOWN_BUG_ENTERED for name, page in entered if name == change.key})
    return weights


def _score(weights: dict[str, float]) -> float:
    remaining = 1.0
    for weight in weights.values():
        remaining *= 1.0 - weight
    return 1.0 - remaining


def _why(weights: dict[str, float], change: Change, symptom: frozenset[str] | None) -> str:
    parts = [f"{len(weights)} page(s) name it" if weights else "no knowledge-base page names it"]
    if KNOWN_BUG_ENTERED in weights.values():
        parts.append(f"{change.after} enters a known-bug range")
    if FIX_UNDOES_CHANGE in weights.values():
        parts.append("a page's fix moves it back towards GOOD's value")
    if change.to_default:
        parts.append("BAD's value is the framework's default")
    if symptom:
        parts.append(f"the curves show {'/'.join(sorted(symptom))}")
    return "; ".join(parts)


def rank(
    changes: Iterable[Change],
    known: Knowledge,
    entered: set[tuple[str, str]],
    curves: Iterable[Departure],
) -> tuple[Change, ...]:
    """Score each change and order them, highest first (then by kind and key)."""
    shown = [SYMPTOM_CLASSES[d.direction] for d in curves if d.direction is not None]
    symptom = frozenset().union(*shown) if shown else None
    ranked = []
    for change in changes:
        if change.kind == "package":
            weights = _package_weights(change, known, entered)
        else:
            weights = _setting_weights(change, known) if change.kind != "machine" else {}
        if symptom is not None:
            weights = {
                page: weight if known.category[page] in symptom else weight * OFF_SYMPTOM_FACTOR
                for page, weight in weights.items()
            }
        score = _score(weights) if weights else UNKNOWN_SCORE
        if change.to_default:
            score *= TO_DEFAULT_FACTOR
        pages = sorted(weights, key=lambda page: (-weights[page], page))[:MAX_PAGES]
        notes = "; ".join(n for n in (_why(weights, change, symptom), change.why) if n)
        ranked.append(replace(change, score=round(score, 3), pages=tuple(pages), why=notes))
    return tuple(sorted(ranked, key=lambda c: (-c.score, c.kind, c.key)))
