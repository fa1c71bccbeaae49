"""Required signature groups: one member must hit, the error printed or the code behind it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from trainwreck import analyzers
from trainwreck.engine.match import match_pattern, texts_of
from trainwreck.evidence.collect import collect
from trainwreck.kb import load
from trainwreck.kb.schema import Pattern

CASE = (
    Path(__file__).resolve().parents[2]
    / "benchmarks/first_sight/batch-1/repro-torch-val-loss-accumulated-graph-oom"
)
PAGE = "loss-accumulated-with-graph"


def _hits(paths: list[Path]) -> list[str] | None:
    """The signatures of the page that hit on these inputs, or None if it is no candidate."""
    pattern = next(p for p in load().patterns if p.id == PAGE)
    evidence = collect([str(path) for path in paths])
    match = match_pattern(pattern, evidence, texts_of(evidence), analyzers.run(evidence))
    if match is None:
        return None
    return [hit.signature.finding or "regex" for hit in match.hits]


def test_the_oom_alone_leaves_the_leak_group_unmet() -> None:
    assert _hits([CASE / "train.log"]) is None


def test_either_code_finding_meets_the_group() -> None:
    assert _hits([CASE / "train.log", CASE / "repro.py"]) == [
        "regex",
        "code.loss_accumulated_live",
        "code.eval_without_no_grad",
    ]


def test_a_group_is_required_as_a_whole_or_not_at_all() -> None:
    page = next(p for p in load().patterns if p.id == PAGE).model_dump()
    page["signatures"][1]["required"] = False
    with pytest.raises(ValidationError, match="every signature of a group"):
        Pattern.model_validate(page)
