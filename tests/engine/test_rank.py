"""Scoring, ordering and confidence calibration on hand-built candidates.

These exercise the engine's rules (DESIGN.md principle 4) directly; the real-case
suite checks the same rules end to end on real logs.
"""

from __future__ import annotations

from trainwreck.engine.calibrate import calibrate
from trainwreck.engine.match import Hit, Match, combine
from trainwreck.engine.rank import (
    GENERIC_SHARE,
    TIE,
    order,
    score_candidate,
    tied_order,
)
from trainwreck.kb.schema import Pattern, Signature
from trainwreck.model import Evidence, Setup, SourceRef


def _pattern(
    pid: str,
    *,
    conditional: bool = False,
    cost: str = "minutes",
    affected: list[dict[str, str]] | None = None,
) -> Pattern:
    return Pattern.model_validate(
        {
            "id": pid,
            "title": pid,
            "category": "crash",
            "frameworks": ["pytorch"],
            "signatures": [{"regex": "boom", "weight": 0.9}],
            "root_cause": "r",
            "mechanism": "m",
            "conditional": conditional,
            "fixes": [{"action": "a"}],
            "discriminator": "d",
            "discriminator_cost": cost,
            "citations": [{"url": "https://github.com/pytorch/pytorch/issues/1", "detail": "d"}],
            "affected": affected or [],
        }
    )


def _match(pattern: Pattern, *weights: float) -> Match:
    ref = SourceRef(source="train.log", line=1, text="boom")
    hits = tuple(Hit(Signature(regex="boom", weight=w), ref) for w in weights)
    return Match(pattern, hits)


def test_combine_is_noisy_or() -> None:
    assert combine([0.5, 0.5]) == 0.75
    assert combine([]) == 0.0


def test_symptoms_alone_are_capped_low() -> None:
    pattern = _pattern("only-words")
    candidate = score_candidate(pattern, None, 1.0, Evidence())
    assert candidate is not None and candidate.score <= 0.35
    assert calibrate(candidate, None)[0] == "low"


def test_strong_unconditional_log_evidence_is_high() -> None:
    pattern = _pattern("strong")
    candidate = score_candidate(pattern, _match(pattern, 0.9), 0.0, Evidence())
    assert candidate is not None
    assert calibrate(candidate, None)[0] == "high"


def test_conditional_pattern_is_capped_medium() -> None:
    pattern = _pattern("conditional", conditional=True)
    candidate = score_candidate(pattern, _match(pattern, 0.9, 0.9), 0.0, Evidence())
    assert candidate is not None
    level, why = calibrate(candidate, None)
    assert level == "medium" and "depends on something" in why


def test_close_runner_up_drops_high_to_medium() -> None:
    first, second = _pattern("first"), _pattern("second")
    a = score_candidate(first, _match(first, 0.9), 0.0, Evidence())
    b = score_candidate(second, _match(second, 0.9), 0.0, Evidence())
    assert a is not None and b is not None
    assert calibrate(a, b)[0] == "medium"


def test_near_ties_go_to_the_cheaper_check() -> None:
    cheap, dear = _pattern("zz-cheap", cost="seconds"), _pattern("aa-dear", cost="run")
    ranked = order(
        [
            c
            for c in (
                score_candidate(dear, _match(dear, 0.9), 0.0, Evidence()),
                score_candidate(cheap, _match(cheap, 0.9), 0.0, Evidence()),
            )
            if c is not None
        ]
    )
    assert [c.pattern.id for c in ranked] == ["zz-cheap", "aa-dear"]


def test_known_bug_version_in_range_boosts_and_outside_halves() -> None:
    pattern = _pattern("bug", affected=[{"package": "transformers", "specifier": "<4.46.2"}])
    inside = Evidence(setup=Setup(frameworks={"transformers": "4.46.0"}))
    outside = Evidence(setup=Setup(frameworks={"transformers": "4.47.0"}))
    base = score_candidate(pattern, _match(pattern, 0.6), 0.0, Evidence())
    boosted = score_candidate(pattern, _match(pattern, 0.6), 0.0, inside)
    halved = score_candidate(pattern, _match(pattern, 0.6), 0.0, outside)
    assert base and boosted and halved
    assert boosted.score > base.score > halved.score
    assert "affected range" in boosted.version_notes[0]


def test_tied_candidates_show_one_score_and_the_cheaper_check_leads() -> None:
    cheap, dear = _pattern("zz-cheap", cost="seconds"), _pattern("aa-dear", cost="run")
    a = score_candidate(dear, _match(dear, 0.9), 0.0, Evidence())
    b = score_candidate(cheap, _match(cheap, 0.88), 0.0, Evidence())
    assert a is not None and b is not None and 0 < a.score - b.score <= TIE
    ranked = order([a, b])
    assert [c.pattern.id for c in ranked] == ["zz-cheap", "aa-dear"]
    assert ranked[0].score == ranked[1].score == a.score


def test_scores_further_apart_than_a_tie_keep_their_order() -> None:
    cheap, dear = _pattern("zz-cheap", cost="seconds"), _pattern("aa-dear", cost="run")
    a = score_candidate(dear, _match(dear, 0.9), 0.0, Evidence())
    b = score_candidate(cheap, _match(cheap, 0.5), 0.0, Evidence())
    assert a is not None and b is not None
    assert [c.pattern.id for c in order([b, a])] == ["aa-dear", "zz-cheap"]


def test_a_catch_all_page_scores_below_the_specific_page_it_overlaps_and_is_never_high() -> None:
    generic = _pattern("generic").model_copy(update={"generic": True})
    specific = _pattern("specific")
    g = score_candidate(generic, _match(generic, 0.95), 0.0, Evidence())
    s = score_candidate(specific, _match(specific, 0.8), 0.0, Evidence())
    assert g is not None and s is not None and g.score > s.score
    ranked = order([g, s])
    assert [c.pattern.id for c in ranked] == ["specific", "generic"]
    assert ranked[1].score == round(GENERIC_SHARE * s.score, 4)
    assert calibrate(ranked[1], None)[0] != "high"


def test_a_weak_match_of_a_specific_page_does_not_demote_the_catch_all() -> None:
    generic = _pattern("generic").model_copy(update={"generic": True})
    weak = _pattern("weak")
    g = score_candidate(generic, _match(generic, 0.95), 0.0, Evidence())
    w = score_candidate(weak, _match(weak, 0.79), 0.0, Evidence())
    assert g is not None and w is not None
    assert [c.pattern.id for c in order([w, g])] == ["generic", "weak"]


def test_family_level_evidence_without_a_specific_signature_is_a_guess() -> None:
    pattern = _pattern("family-only")
    candidate = score_candidate(pattern, _match(pattern, 0.7, 0.5), 0.0, Evidence())
    assert candidate is not None and candidate.strength >= 0.5
    level, why = calibrate(candidate, None)
    assert level == "low" and why.startswith("a guess")


def test_a_catch_all_page_whose_finding_names_what_differs_stops_at_medium() -> None:
    """batch-8's aipparel-inference-state-dict-size-mismatch-15: the checkpoint-size page's
    vocabulary finding said which tensors differ; the cause (a wrong checkpoint file) was
    not what the page's title says, and the answer was High."""
    generic = _pattern("family").model_copy(update={"generic": True})
    ref = SourceRef(source="train.log", line=1, text="boom")
    hits = (
        Hit(Signature(regex="boom", weight=0.9), ref),
        Hit(Signature(finding="checkpoint.vocabulary", weight=0.6), ref),
    )
    candidate = score_candidate(generic, Match(generic, hits), 0.0, Evidence())
    assert candidate is not None and candidate.names_cause and candidate.strength >= 0.8
    level, why = calibrate(candidate, None)
    assert level == "medium" and "failure family" in why


def test_in_a_tie_equal_shown_scores_mean_cheaper_check_first_and_lower_levels_show_less() -> None:
    # (name, score, cost, level): a, b, c, e within TIE of a; d starts the next tie
    items = [
        ("a", 0.50, 2, 1),
        ("b", 0.49, 0, 2),
        ("c", 0.485, 1, 1),
        ("e", 0.481, 2, 0),
        ("d", 0.47, 0, 1),
    ]
    shown = tied_order(
        items,
        score=lambda item: item[1],
        cost=lambda item: item[2],
        name=lambda item: item[0],
        level=lambda item: item[3],
        said=lambda item: 0.0,
    )
    assert [(item[0], score) for item, score in shown] == [
        ("e", 0.50),  # names the cause: leads its tie, with the leader's score
        ("c", 0.49),  # plain pages: one step lower, the cheaper check first
        ("a", 0.49),
        ("b", 0.48),  # cheapest, but a catch-all: last, two steps lower
        ("d", 0.47),  # two steps stay within TIE: the next tie is still below
    ]
    scores = [score for _, score in shown]
    assert scores == sorted(scores, reverse=True)


def test_a_tie_of_one_level_keeps_its_leader_score() -> None:
    items = [("a", 0.30, 1, 2), ("b", 0.29, 0, 2)]
    shown = tied_order(
        items, lambda i: i[1], lambda i: i[2], lambda i: i[0], lambda i: i[3], lambda i: 0.0
    )
    assert [(item[0], score) for item, score in shown] == [("b", 0.30), ("a", 0.30)]


def test_among_equal_checks_the_best_described_page_leads_not_the_first_name() -> None:
    """batch-28's AWQ-under-load thread: two symptom-only pages tied at 0.3237; the one the
    description matched best (relevance 1.0, the quantized-kernel page) followed the other
    (0.972) on its name alone."""
    items = [("vllm-preemption", 0.3237, 1, 0.972), ("vllm-quantization", 0.3237, 1, 1.0)]
    shown = tied_order(
        items,
        score=lambda item: item[1],
        cost=lambda item: item[2],
        name=lambda item: item[0],
        level=lambda item: 0,
        said=lambda item: item[3],
    )
    assert [item[0] for item, _ in shown] == ["vllm-quantization", "vllm-preemption"]


def test_a_catch_all_yields_to_a_known_bug_of_any_class_whose_range_holds_the_version() -> None:
    """The regression page names the window a change entered in; a known bug whose affected
    range holds the run's version names the change, whatever failure class it is filed in."""
    catch_all = {"generic": True, "any_class": True, "category": "hang"}
    regression = _pattern("regression").model_copy(update=catch_all)
    bug = _pattern("bug", affected=[{"package": "transformers", "specifier": "<4.46.2"}])
    inside = Evidence(setup=Setup(frameworks={"transformers": "4.46.0"}))
    outside = Evidence(setup=Setup(frameworks={"transformers": "4.47.0"}))
    r = score_candidate(regression, _match(regression, 0.95), 0.0, inside)
    for evidence, leads in ((inside, "bug"), (outside, "regression")):
        b = score_candidate(bug, _match(bug, 0.5), 0.0, evidence)
        assert r is not None and b is not None and r.score > b.score
        assert order([r, b])[0].pattern.id == leads
