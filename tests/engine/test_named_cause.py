"""A finding that names this run's cause leads the hypothesis's root cause.

Real cases from first-sight batch-1: before, the top page was right in family but
its text only said what such failures have in common (reviewers judged the float64
case "family"); the analyzer's finding says which cause this run has.
"""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder
from trainwreck.model import Diagnosis

BATCH = Path(__file__).parent.parent.parent / "benchmarks" / "first_sight" / "batch-1"


def _diagnosed(case: str) -> Diagnosis:
    return diagnose_folder(BATCH / case)


def test_one_based_labels_are_named_first() -> None:
    top = _diagnosed("repro-torch-crossentropy-1based-labels").hypotheses[0]
    assert top.root_cause.startswith("In this run: labels are 1-based: target 10")


def test_a_catch_all_page_with_a_cause_naming_finding_names_float64_data_and_is_not_a_guess() -> (
    None
):
    top = _diagnosed("repro-torch-float64-numpy-input").hypotheses[0]
    assert top.id == "dtype-mismatch"
    assert "float64 data from NumPy" in top.root_cause
    assert top.confidence != "low"


def test_a_page_without_such_a_finding_keeps_its_own_text() -> None:
    top = _diagnosed("vllm-tp8-heads-not-divisible-21").hypotheses[0]
    assert not top.root_cause.startswith("In this run:")
