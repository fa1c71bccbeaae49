"""code.loader_iterated_anew_each_step: next(iter(loader)) builds a new iterator every step."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.loader_iterated_anew_each_step"
BATCH_8 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-8"

EVERY_STEP = """
for step in range(max_steps):
    x, y = next(iter(train_loader))
    loss = loss_fn(model(x), y)
"""
ONE_ITERATOR = """
batches = iter(train_loader)
for step in range(max_steps):
    x, y = next(batches)
"""
A_PEEK = """
sample = next(iter(self.val_dl))
print(sample.shape)
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (EVERY_STEP, True),
        (EVERY_STEP.replace("train_loader", "self.val_dl"), True),
        (ONE_ITERATOR, False),
        (A_PEEK, False),  # one batch looked at outside any loop
        (EVERY_STEP.replace("train_loader", "tokens"), False),  # not named like a loader
    ],
)
def test_fires_only_for_a_fresh_loader_iterator_inside_a_loop(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_loop_with_high_data_time_every_step_gets_its_page() -> None:
    # first-sight batch-8 reproduction, judged family at a574aaf (the "too few workers" page
    # led): next(iter(train_loader)) at each of the 40 steps
    report = diagnose_folder(BATCH_8 / "pytorch-dataloader-slow-steps-high-data-time-repro")
    assert report.hypotheses[0].id == "dataloader-workers-recreated-each-epoch"
