"""A look-alike thread of a class the user's words rule out is no hypothesis (batch-11).

Both reproductions below were led by a sibling reproduction from the case memory whose
class the user's words contradict: a slow-Trainer record for "the metrics look wrong",
a wrong-metric record for an eval loss of inf. The threads stay under "Similar confirmed
failures"; only the hypotheses drop them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder
from trainwreck.engine.gate import related

BATCH_11 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-11"


@pytest.mark.parametrize(
    "case",
    [
        "r1-transformers-multilabel-tagger-f1-low-recall-repro",
        "r1-transformers-intent-trainer-loss-zero-eval-loss-inf-repro",
    ],
)
def test_no_case_hypothesis_outside_the_stated_class(case: str) -> None:
    report = diagnose_folder(BATCH_11 / case)
    stated = report.context.stated
    assert stated is not None
    recalled = [h for h in report.hypotheses if h.id.startswith("case:")]
    assert [h.id for h in recalled if not related(h.category, stated.category)] == []
    # the look-alike records are still listed for the reader
    assert report.similar_cases
