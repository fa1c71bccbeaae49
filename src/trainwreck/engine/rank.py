"""Score candidates, order them, and calibrate confidence (DESIGN.md principle 4).

Score = evidence strength nudged by the pattern's prior. Log evidence, the
user's symptoms and known-bug version ranges each add to the strength; a
candidate backed only by symptoms is capped low. Candidates whose scores are
within one bucket of each other are ordered by the cost of the check that
tells them apart, cheapest first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from trainwreck.engine.match import Match, combine
from trainwreck.kb.schema import COST_ORDER, Pattern
from trainwreck.model import Confidence, Evidence

SYMPTOM_ONLY_CAP = 0.35
SYMPTOM_BOOST = 0.2
KNOWN_BUG_BOOST = 0.3
SCORE_BUCKET = 0.05
HIGH_STRENGTH = 0.8
MEDIUM_STRENGTH = 0.5


@dataclass(frozen=True)
class Candidate:
    pattern: Pattern
    match: Match | None
    version_notes: tuple[str, ...]
    strength: float
    score: float

    @property
    def log_backed(self) -> bool:
        return self.match is not None


def _known_bug(pattern: Pattern, evidence: Evidence) -> tuple[float, tuple[str, ...]]:
    """(multiplier or boost weight, notes) from the pattern's affected ranges."""
    notes: list[str] = []
    boost = 0.0
    for affected in pattern.affected:
        version = evidence.installed_version(affected.package)
        if version is None:
            continue
        try:
            inside = Version(version) in SpecifierSet(affected.specifier)
        except (InvalidVersion, InvalidSpecifier):
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
    pattern: Pattern, match: Match | None, relevance: float, evidence: Evidence
) -> Candidate | None:
    """One scored candidate; None when neither logs nor symptoms support it."""
    boost, notes = _known_bug(pattern, evidence)
    if match is not None:
        strength = combine([match.strength, SYMPTOM_BOOST * relevance, max(boost, 0.0)])
    elif relevance > 0:
        strength = SYMPTOM_ONLY_CAP * combine([relevance, max(boost, 0.0)])
    else:
        return None
    if boost < 0:
        strength *= 0.5
    score = round(strength * (0.85 + 0.15 * pattern.prior), 4)
    return Candidate(pattern, match, notes, round(strength, 4), score)


def order(candidates: list[Candidate]) -> list[Candidate]:
    """Best first; near-ties go to the cheaper discriminating check, then by id."""
    return sorted(
        candidates,
        key=lambda c: (
            -math.floor(c.score / SCORE_BUCKET),
            COST_ORDER[c.pattern.discriminator_cost],
            -c.score,
            c.pattern.id,
        ),
    )


def calibrate(candidate: Candidate, runner_up: Candidate | None) -> tuple[Confidence, str]:
    """Confidence and the reason for it, per DESIGN.md principle 4."""
    page = f"[kb:{candidate.pattern.id}]"
    if not candidate.log_backed:
        return "low", f"{page} is supported only by the described symptoms, not by log evidence"
    assert candidate.match is not None
    hits = len(candidate.match.hits)
    close = runner_up is not None and candidate.score - runner_up.score < SCORE_BUCKET
    if candidate.strength >= HIGH_STRENGTH and not candidate.pattern.conditional and not close:
        return "high", (
            f"documented failure {page}, {hits} signature(s) matched in your logs, "
            "mechanism cited and not conditional on anything unseen"
        )
    reasons = []
    if candidate.pattern.conditional:
        reasons.append("the mechanism depends on something the logs do not show")
    if close and runner_up is not None:
        reasons.append(f"[kb:{runner_up.pattern.id}] fits almost as well")
    if candidate.strength < HIGH_STRENGTH:
        reasons.append(f"the log evidence is partial (strength {candidate.strength:.2f})")
    level: Confidence = "medium" if candidate.strength >= MEDIUM_STRENGTH else "low"
    return level, f"{page} matched your logs, but " + "; ".join(reasons)
