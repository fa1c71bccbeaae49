"""Real knowledge-base pages and a one-signature match of a chosen weight, for gate tests."""

from __future__ import annotations

from trainwreck.engine.match import Hit, Match
from trainwreck.kb import load
from trainwreck.kb.schema import Pattern, Signature
from trainwreck.model import SourceRef

REF = SourceRef(source="train.log", line=1, text="x")


def page(page_id: str) -> Pattern:
    found = load().get(page_id)
    assert found is not None, page_id
    return found


def match(pattern: Pattern, weight: float) -> Match:
    """The page matched by one log signature of this weight (0.8 and up counts as specific)."""
    return Match(pattern, (Hit(Signature(regex="x", weight=weight), REF),))
