"""The Trainer's column stripping ahead of a custom collator, read from its traceback frame."""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder

BATCH_9 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-9"


def test_a_collator_keyerror_behind_the_trainers_column_stripping_gets_its_page() -> None:
    # batch-9 reproduction, judged wrong at 1e00051 (a collate-size page led): the Trainer's
    # RemoveColumnsCollator frame sits right above the custom collator's KeyError: 'text'
    report = diagnose_folder(BATCH_9 / "r4-transformers-trainer-collator-keyerror-text-repro")
    assert report.hypotheses[0].id == "trainer-drops-columns-custom-collator-needs"
