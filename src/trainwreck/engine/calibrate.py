"""Confidence: the one written rule that turns evidence into High, Medium or Low.

High   the page's own log signature matched (a specific one, weight >= 0.8; a code
       finding alone shows the code can fail so, not that this run did), the
       evidence strength is >= HIGH_STRENGTH, the page is not a catch-all (not even
       when a finding names what differs: the family page says what, not why), its
       mechanism depends on nothing unseen, the run's context does not argue
       against it, and no other page fits almost as well.
Medium the page's own specific signature matched, with evidence strength
       >= MEDIUM_STRENGTH, on a page that is not a catch-all, in a context that
       fits; something keeps it from High (a condition unseen, a close runner-up).
       A catch-all page counts as specific when an analyzer finding it weighs
       as naming the cause matched (the report then quotes that finding).
Low    everything else: symptoms only, evidence that fits the failure family but
       no signature unique to the cause, a catch-all page, or a page the context
       argues against. The report calls it a guess.

Why a specific signature for Medium: on first-sight batch-1, top answers backed
only by family-level evidence were right 3 times in 12; with their own
signature, 12 times in 15.

Measured on first-sight cases (benchmarks/first_sight.md, reliability table
from benchmarks/accuracy.py); the target is High right >= 95%, Medium >= 70%.
"""

from __future__ import annotations

from trainwreck.engine.gate import specific_hit
from trainwreck.engine.rank import TIE, Candidate
from trainwreck.model import Confidence

HIGH_STRENGTH = 0.8
MEDIUM_STRENGTH = 0.5


def calibrate(candidate: Candidate, rival: Candidate | None) -> tuple[Confidence, str]:
    """Confidence and the reason for it; `rival` is the hypothesis ranked next to it (the
    runner-up of the top, the one above an alternative): within TIE of it, it is not High."""
    page = f"[kb:{candidate.pattern.id}]"
    if not candidate.log_backed:
        return "low", f"a guess: {page} is supported only by the described symptoms, not by logs"
    hits = len(candidate.match.hits) if candidate.match else 0
    close = rival is not None and abs(candidate.score - rival.score) <= TIE
    against = list(candidate.gate_notes)
    reasons = []
    if candidate.pattern.conditional:
        reasons.append("the mechanism depends on something the logs do not show")
    catch_all = candidate.pattern.generic and not candidate.names_cause
    if candidate.pattern.generic:
        reasons.append("it names the failure family, not one cause")
    if not candidate.specific:
        reasons.append("no signature unique to this cause matched")
    elif not specific_hit(candidate.match, code=False):
        reasons.append("your code can fail this way, but no log line shows this run did")
    if close and rival is not None:
        reasons.append(f"[kb:{rival.pattern.id}] fits as well")
    if candidate.strength < HIGH_STRENGTH:
        reasons.append(f"the log evidence is partial (strength {candidate.strength:.2f})")
    if not reasons and not against:
        return "high", (
            f"documented failure {page}, {hits} signature(s) matched in your logs, "
            "mechanism cited and not conditional on anything unseen"
        )
    weak = not candidate.specific or catch_all
    if against or weak or candidate.strength < MEDIUM_STRENGTH:
        return "low", f"a guess: {page} matched your logs, but " + "; ".join(against + reasons)
    return "medium", f"{page} matched your logs, but " + "; ".join(reasons)
