"""A page that only restates the failure yields to the page the user's words name best.

Real cases from the first-sight batches: a Trainer evaluation that keeps every batch's
logits until the host allocator refuses (batch-21, a CPU reproduction), and LoRA with
gradient checkpointing whose checkpointed blocks get inputs that need no grad (batch-3,
huggingface/peft#137). Their logs end in the refused allocation and in "element 0 of
tensors does not require grad", and the pages that restate those messages led until the
described mechanism could outrank them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import match, page

from trainwreck.curation.cases import diagnose_folder
from trainwreck.engine.rank import GENERIC_SHARE, SAID_SPECIFIC, Candidate, yield_to_specific

FIRST_SIGHT = Path(__file__).parents[2] / "benchmarks" / "first_sight"


def _candidate(page_id: str, score: float, *, weight: float = 0.5, said: float = 0.0) -> Candidate:
    pattern = page(page_id)
    return Candidate(pattern, match(pattern, weight), (), score, score, (), said)


def test_a_restating_page_scores_below_the_page_the_words_name() -> None:
    restating = _candidate("loss-non-finite", 0.75, weight=0.9)
    named = _candidate("custom-loss-log-of-zero", 0.3, said=SAID_SPECIFIC)
    by_id = {c.pattern.id: c for c in yield_to_specific([restating, named])}
    assert by_id["loss-non-finite"].score == round(GENERIC_SHARE * 0.3, 4)
    assert by_id["custom-loss-log-of-zero"].score == 0.3


def test_words_below_the_threshold_or_in_another_class_leave_it_alone() -> None:
    restating = _candidate("loss-non-finite", 0.75, weight=0.9)
    weakly_named = _candidate("custom-loss-log-of-zero", 0.3, said=SAID_SPECIFIC - 0.01)
    other_class = _candidate("cuda-oom-capacity", 0.3, said=1.0)
    for other in (weakly_named, other_class):
        assert yield_to_specific([restating, other])[0].score == 0.75


def test_a_page_users_report_as_the_restated_class_counts_for_it() -> None:
    """batch-34's maskrcnn thread: `--local_rank 1` used to pick a GPU (a config page users
    meet as a crash) beside the illegal-memory-access page its one log line matched."""
    restating = page("cuda-illegal-memory-access")
    assert restating.restates_failure and restating.category == "crash"
    named = page("local-rank-flag-used-to-pick-gpu")
    assert named.category == "config_error" and "crash" in named.classes
    capped = yield_to_specific(
        [
            _candidate("cuda-illegal-memory-access", 0.74, weight=0.9),
            _candidate("local-rank-flag-used-to-pick-gpu", 0.33, said=1.0),
        ]
    )
    assert capped[0].score == round(GENERIC_SHARE * 0.33, 4)


def test_a_catch_all_that_does_not_restate_the_failure_keeps_its_score() -> None:
    """api-missing-in-installed-release names a cause (the call is not in this release):
    the words alone do not move it."""
    catch_all = page("api-missing-in-installed-release")
    assert catch_all.generic and not catch_all.restates_failure
    kept = _candidate("api-missing-in-installed-release", 0.7, weight=0.9)
    named = _candidate("hf-import-name-version-skew", 0.3, said=1.0)
    assert yield_to_specific([kept, named])[0].score == 0.7


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        (
            "batch-21/r21E-transformers-trainer-eval-cannot-allocate-repro",
            "hf-eval-predictions-accumulated-on-gpu",
        ),
        (
            "batch-3/peft-lora-gradient-checkpointing-input-no-grad-137",
            "lora-gradient-checkpointing-no-input-grad",
        ),
    ],
)
def test_the_described_mechanism_leads_over_the_restated_message(case: str, expected: str) -> None:
    assert diagnose_folder(FIRST_SIGHT / case).hypotheses[0].id == expected
