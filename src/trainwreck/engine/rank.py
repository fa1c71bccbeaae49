"""Score candidates and put them in order (DESIGN.md: engine).

Score = evidence strength, nudged by the page's prior, times what the run's
context keeps of it (`gate`). Log evidence, the user's symptoms and known-bug
version ranges each add to the strength; a candidate backed only by symptoms
is capped low. Candidates within `TIE` of each other are tied: they show one
score and go in the order of the cost of the check that tells them apart, so
the order shown never contradicts the scores shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from trainwreck.engine.gate import gate_factor, specific_hit
from trainwreck.engine.match import Match, combine
from trainwreck.kb.schema import COST_ORDER, Pattern
from trainwreck.model import Evidence, RunContext

SYMPTOM_ONLY_CAP = 0.35
SYMPTOM_BOOST = 0.2
KNOWN_BUG_BOOST = 0.3
OUTSIDE_AFFECTED_FACTOR = 0.5
# Scores this close are a tie: below the resolution the weights were set with (0.05 steps).
TIE = 0.02
# Reports print scores to two decimals: a page placed below a tie on purpose shows one
# hundredth less per level, so equal shown scores only ever mean "cheaper check first";
# two levels below the first stay within TIE, above the next tie.
DEMOTED_STEP = 0.01
# A catch-all page keeps at most this share of the score of the best page in its class
# whose own specific signature matched, so that page leads and the two never show as tied.
GENERIC_SHARE = 0.9
# A page that restates the failure (`restates_failure`: a NaN loss, a gloo timeout, a
# refused allocation) yields the same way to a page of its class the user's words name
# among the search's best: at 0.8 of its best hit (the same page leads at 1.0). Over
# first-sight batches 1-21 this turned 6 wrong tops right and none right wrong.
SAID_SPECIFIC = 0.8
# A finding signature this heavy names a cause rather than restating the page's message
# (the KB's convention: cause-naming findings weigh 0.6 and up, restatements 0.3-0.4).
CAUSE_FINDING_WEIGHT = 0.6


@dataclass(frozen=True)
class Candidate:
    pattern: Pattern
    match: Match | None
    version_notes: tuple[str, ...]
    strength: float
    score: float
    gate_notes: tuple[str, ...] = ()
    said: float = 0.0  # the symptom search's score for the page (0-1, its best hit 1)
    known_bug: bool = False  # a version the run shows is inside the page's affected range

    @property
    def log_backed(self) -> bool:
        return self.match is not None

    @property
    def specific(self) -> bool:
        return specific_hit(self.match)

    @property
    def names_cause(self) -> bool:
        """An analyzer finding the page weighs as naming this run's cause matched."""
        hits = self.match.hits if self.match else ()
        return any(
            h.signature.finding is not None and h.signature.weight >= CAUSE_FINDING_WEIGHT
            for h in hits
        )


def _in_range(version: str, specifier: str) -> bool | None:
    try:
        return Version(version) in SpecifierSet(specifier)
    except (InvalidVersion, InvalidSpecifier):
        return None


def _known_bug(
    pattern: Pattern, evidence: Evidence, context: RunContext
) -> tuple[float, tuple[str, ...]]:
    """(boost weight, or -1 when every version seen is outside the ranges; notes)."""
    notes: list[str] = []
    boost = 0.0
    said = {change.package: change.bad for change in context.version_changes if change.bad}
    for affected in pattern.affected:
        version = (
            evidence.installed_version(affected.package)
            or said.get(affected.package)
            or context.versions.get(affected.package)
        )
        if version is None or (inside := _in_range(version, affected.specifier)) is None:
            continue
        fixed = f"; fixed in {affected.fixed_in}" if affected.fixed_in else ""
        if inside:
            boost = KNOWN_BUG_BOOST
            notes.append(
                f"{affected.package} {version} is in the affected range {affected.specifier}{fixed}"
            )
        else:
            boost = -1.0 if boost == 0.0 else boost
            notes.append(
                f"{affected.package} {version} is outside the affected range {affected.specifier}"
            )
    return boost, tuple(notes)


def score_candidate(
    pattern: Pattern,
    match: Match | None,
    relevance: float,
    evidence: Evidence,
    context: RunContext | None = None,
) -> Candidate | None:
    """One scored candidate; None when neither logs nor symptoms support it."""
    context = context or RunContext()
    boost, notes = _known_bug(pattern, evidence, context)
    if match is not None:
        strength = combine([match.strength, SYMPTOM_BOOST * relevance, max(boost, 0.0)])
    elif relevance > 0:
        strength = SYMPTOM_ONLY_CAP * combine([relevance, max(boost, 0.0)])
    else:
        return None
    if boost < 0:
        strength *= OUTSIDE_AFFECTED_FACTOR
    factor, gate_notes = gate_factor(pattern, match, context)
    score = round(strength * (0.85 + 0.15 * pattern.prior) * factor, 4)
    return Candidate(
        pattern,
        match,
        notes,
        round(strength, 4),
        score,
        tuple(gate_notes),
        round(relevance, 4),
        known_bug=boost > 0,
    )


def yield_to_specific(candidates: list[Candidate]) -> list[Candidate]:
    """Catch-all pages score below the best page of their class whose own signature
    matched, and a catch-all for every class (the release-regression page) below the best
    known bug whose affected range holds the run's version (the one names the window, the
    other what broke in it); a page that only restates the failure also scores below the
    best page of its class that the user's description names (the log says that it failed,
    the words what led there)."""
    matched: dict[str, float] = {}
    said: dict[str, float] = {}
    known_bug = 0.0
    for c in candidates:
        if c.pattern.generic or c.pattern.restates_failure:
            continue
        if c.specific:
            # under every class users report it as, like `said` below: a divergence page whose
            # code finding matched is the specific answer beside the catch-all for the NaN loss
            # it ran into (batch-35's variance-scaler reproduction)
            for kind in c.pattern.classes:
                matched[kind] = max(matched.get(kind, 0.0), c.score)
        if c.said >= SAID_SPECIFIC:
            # under every class users report it as (`seen_as`): a config page users meet as a
            # crash is the specific answer beside a page that restates the crash (batch-34's
            # --local_rank thread, whose one log line was the illegal memory access it led to)
            for kind in c.pattern.classes:
                said[kind] = max(said.get(kind, 0.0), c.score)
        if c.known_bug:
            known_bug = max(known_bug, c.score)
    return [_capped(c, matched, said, known_bug) for c in candidates]


def _capped(
    c: Candidate, matched: dict[str, float], said: dict[str, float], known_bug: float
) -> Candidate:
    category = c.pattern.category
    leaders = [
        *([matched[category]] if c.pattern.generic and category in matched else []),
        *([known_bug] if c.pattern.generic and c.pattern.any_class and known_bug else []),
        *([said[category]] if c.pattern.restates_failure and category in said else []),
    ]
    if not leaders:
        return c
    return replace(c, score=round(min(c.score, GENERIC_SHARE * max(leaders)), 4))


Item = TypeVar("Item")


def tied_order(
    items: Sequence[Item],
    score: Callable[[Item], float],
    cost: Callable[[Item], int],
    name: Callable[[Item], str],
    level: Callable[[Item], int],
    said: Callable[[Item], float],
) -> list[tuple[Item, float]]:
    """Items best first with the score each shows: a tie shows its leader's score.

    A tie is a run of items within `TIE` of the run's leader. Inside it items of a
    lower `level` lead (a page whose finding names this run's cause before a plain
    one, a catch-all or a code mistake nobody has shown after both); each level
    present below the first shows `DEMOTED_STEP` less, so equal shown scores always
    mean "ordered by the cost of the check" (cheaper first), then by how well the
    user's words match (`said`), then by name. At most TIE / DEMOTED_STEP steps are
    taken, so a tie stays above the next one.
    """
    by_score = sorted(items, key=lambda item: (-score(item), name(item)))
    ordered: list[tuple[Item, float]] = []
    start = 0
    while start < len(by_score):
        leader = score(by_score[start])
        end = start
        while end < len(by_score) and leader - score(by_score[end]) <= TIE:
            end += 1
        group = sorted(
            by_score[start:end],
            key=lambda item: (level(item), cost(item), -said(item), name(item)),
        )
        present = sorted({level(item) for item in group})
        ordered.extend(
            (item, round(leader - DEMOTED_STEP * present.index(level(item)), 4)) for item in group
        )
        start = end
    return ordered


def _unseen_code_mistake(candidate: Candidate) -> bool:
    """A page about a mistake in the user's code, retrieved by the symptoms' words alone: its
    cause rests on code nobody has shown, so in a tie it follows pages the words describe
    directly. Measured on batches 1-12 (development): a word-only tie had put a new dataset-
    pool page over the DataLoader-timeout page a reviewer had judged right."""
    return candidate.match is None and candidate.pattern.seen_in_code


def _tie_level(candidate: Candidate) -> int:
    """0: a specific page whose finding names this run's cause; 1: a page the evidence or the
    words describe; 2: a catch-all, or a code mistake nobody has shown."""
    if candidate.pattern.generic or _unseen_code_mistake(candidate):
        return 2
    return 0 if candidate.names_cause else 1


def _words_fit(candidate: Candidate) -> float:
    """How well the user's words match a page the run's context keeps; a page the context
    demoted (another class than the one stated, a framework the run lacks) fits none: its
    words reached the tie only through the demotion (batch-2's trl AttributeError)."""
    return 0.0 if candidate.gate_notes else candidate.said


def order(candidates: list[Candidate]) -> list[Candidate]:
    """Best first, ties shown with one score, cheaper check first; in a tie a page whose
    finding names this run's cause leads, and a catch-all page (which names no cause the tied
    specific page could not) or a code mistake nobody has shown follows, each level one
    hundredth lower (`_tie_level`); among equals, the page the user's words match best
    (batch-28's AWQ-under-load thread: the quantized-kernel page, the best match of the
    description, followed a KV-cache page on its name alone)."""
    ranked = tied_order(
        yield_to_specific(candidates),
        score=lambda c: c.score,
        cost=lambda c: COST_ORDER[c.pattern.discriminator_cost],
        name=lambda c: c.pattern.id,
        level=_tie_level,
        said=_words_fit,
    )
    return [replace(candidate, score=shown) for candidate, shown in ranked]
