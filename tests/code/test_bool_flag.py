"""code.argparse_type_bool: a command-line option parsed with type=bool."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.argparse_type_bool"
BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        ('parser.add_argument("--freeze", type=bool, default=True)', True),
        ('parser.add_argument("--freeze", action="store_true")', False),
        ('parser.add_argument("--epochs", type=int, default=8)', False),
        ('parser.add_argument("--freeze", type=str2bool, default=True)', False),
    ],
)
def test_fires_only_for_type_bool(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_encoder_that_trains_although_freezing_was_switched_off_gets_its_page() -> None:
    # batch-10 reproduction, judged wrong at 2c91f17 (a distributed-collective page led)
    report = diagnose_folder(BATCH_10 / "r3-pytorch-argparse-freeze-flag-ignored-repro")
    assert report.hypotheses[0].id == "argparse-type-bool-always-true"
