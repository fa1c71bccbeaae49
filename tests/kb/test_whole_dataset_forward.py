"""The whole-dataset-in-one-forward page leads on the real cases it was written from.

A batch-13 and a batch-23 CPU reproduction (a FAQ index encoded in one call, a perplexity
computed on the whole validation tensor) and a Lightning Flash predict thread: each
diagnosed as a new failure, with its own case record left out of the memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder

FIRST_SIGHT = Path(__file__).parents[2] / "benchmarks" / "first_sight"
PAGE = "inference-whole-dataset-in-one-forward"


@pytest.mark.parametrize(
    "case",
    [
        "batch-13/r3-transformers-faq-embedding-index-cannot-allocate-repro",
        "batch-23/r23E-transformers-gpt2-eval-perplexity-oom-repro",
        "batch-23/t23A-lightning-flash-predict-memory-overflow",
    ],
)
def test_the_page_leads_on_its_cases(case: str) -> None:
    assert diagnose_folder(FIRST_SIGHT / case).hypotheses[0].id == PAGE


def test_a_batched_evaluation_that_keeps_every_batchs_logits_is_not_this_page() -> None:
    """batch-21's Trainer evaluation is batched; it keeps the logits of every batch."""
    case = FIRST_SIGHT / "batch-21" / "r21E-transformers-trainer-eval-cannot-allocate-repro"
    assert diagnose_folder(case).hypotheses[0].id != PAGE
