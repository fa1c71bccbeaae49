"""`alternatives-order`: score order with the cheaper check first among equal scores when an
answer shows scores, the cheaper check first within one stated confidence when it does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainwreck.answer_check import check_answer
from trainwreck.answer_check.parse import parse

CASES = Path(__file__).resolve().parents[2] / "tests" / "cases"
# A report whose alternatives show four scores, two of them equal (a tie).
TIED_CASE = CASES / "pytorch-int8-lora-dtype-16"


def answer(*alternatives: tuple[str, str]) -> str:
    """An answer whose alternatives state (confidence and score, check cost)."""
    lines = ["## Alternatives", ""]
    for number, (stated, cost) in enumerate(alternatives, start=1):
        lines += [
            f"{number}. **Cause {number}** ({stated}): why. [no KB]",
            f"   - Check: look (cost: {cost})",
        ]
    return "\n".join(lines) + "\n"


def order_problems(text: str) -> list[tuple[int | None, str]]:
    return [
        (result.line, result.message)
        for result in check_answer(text).failures
        if result.rule == "alternatives-order"
    ]


def test_our_report_line_gives_back_the_scores_the_json_holds() -> None:
    text = (TIED_CASE / "expected.md").read_text(encoding="utf-8")
    hypotheses = json.loads((TIED_CASE / "expected.json").read_text(encoding="utf-8"))["hypotheses"]
    alternatives = parse(text).alternatives
    assert [a.score for a in alternatives] == [round(h["score"], 2) for h in hypotheses[1:]]
    assert [a.confidence for a in alternatives] == [h["confidence"] for h in hypotheses[1:]]


def test_a_score_in_the_claim_is_not_the_alternative_score() -> None:
    text = answer(("Low confidence", "seconds")).replace("why.", "the F1 score 0.9 fell.")
    assert parse(text).alternatives[0].score is None


def test_a_costlier_check_under_a_higher_shown_score_passes() -> None:
    text = answer(
        ("Low confidence, score 0.60", "a run"), ("Low confidence, score 0.40", "seconds")
    )
    assert order_problems(text) == []


def test_a_rising_score_fails_on_its_line() -> None:
    text = answer(
        ("Low confidence, score 0.40", "seconds"), ("Low confidence, score 0.60", "hours")
    )
    assert order_problems(text) == [
        (5, "score 0.60 comes after score 0.40 (line 3): the list is not in score order")
    ]


@pytest.mark.parametrize(("first", "second"), [("0.40", "0.40"), ("0.4", "0.40")])
def test_equal_shown_scores_put_the_cheaper_check_first(first: str, second: str) -> None:
    text = answer(
        (f"Medium confidence, score {first}", "hours"),
        (f"Low confidence, score {second}", "minutes"),
    )
    assert order_problems(text) == [
        (5, "a check of minutes comes after one of hours (line 3) of the same shown score: "
            "cheapest first")
    ]  # fmt: skip


def test_without_scores_a_higher_confidence_may_come_first() -> None:
    assert (
        order_problems(answer(("Medium confidence", "hours"), ("Low confidence", "seconds"))) == []
    )
    assert order_problems(answer(("Low confidence", "hours"), ("Low confidence", "seconds"))) == [
        (5, "a check of seconds comes after one of hours (line 3) of the same confidence: "
            "cheapest first")
    ]  # fmt: skip


def test_scores_on_only_some_alternatives_keep_the_confidence_rule() -> None:
    text = answer(("Low confidence, score 0.40", "hours"), ("Low confidence", "seconds"))
    assert [message for _, message in order_problems(text)] == [
        "a check of seconds comes after one of hours (line 3) of the same confidence: "
        "cheapest first"
    ]
