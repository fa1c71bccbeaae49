"""code.epoch_scheduler_stepped_per_batch: an epoch-sized LR period counted in batches."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.epoch_scheduler_stepped_per_batch"
BATCH_8 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-8"

PER_BATCH = """
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.1)
for epoch in range(15):
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        scheduler.step()
"""
PER_EPOCH = """
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.1)
for epoch in range(15):
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    scheduler.step()
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (PER_BATCH, True),
        (PER_BATCH.replace("step_size=5", "step_size=100"), True),  # EPOCH_SCALE itself
        (PER_BATCH.replace("step_size=5", "step_size=101"), False),  # a per-step period
        (
            PER_BATCH.replace("StepLR(optimizer, step_size=5, gamma=0.1)", "StepLR(optimizer, 5)"),
            True,
        ),
        (
            PER_BATCH.replace(
                "StepLR(optimizer, step_size=5, gamma=0.1)",
                "MultiStepLR(optimizer, milestones=[30, 80])",
            ),
            True,
        ),
        (
            PER_BATCH.replace(
                "StepLR(optimizer, step_size=5, gamma=0.1)", "MultiStepLR(optimizer, [3000, 8000])"
            ),
            False,
        ),
        (
            PER_BATCH.replace(
                "StepLR(optimizer, step_size=5, gamma=0.1)", "ExponentialLR(optimizer, gamma=0.9)"
            ),
            True,
        ),
        (
            PER_BATCH.replace(
                "StepLR(optimizer, step_size=5, gamma=0.1)", "ExponentialLR(optimizer, gamma=0.99)"
            ),
            False,
        ),  # PER_STEP_GAMMA
        (
            PER_BATCH.replace(
                "StepLR(optimizer, step_size=5, gamma=0.1)",
                "CosineAnnealingLR(optimizer, T_max=50)",
            ),
            True,
        ),
        (
            PER_BATCH.replace(
                "StepLR(optimizer, step_size=5, gamma=0.1)",
                "OneCycleLR(optimizer, 0.1, total_steps=3000)",
            ),
            False,
        ),
        (PER_EPOCH, False),
    ],
)
def test_fires_for_an_epoch_period_stepped_in_the_batch_loop(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_mlp_whose_loss_freezes_after_one_epoch_gets_its_page() -> None:
    # first-sight batch-8 reproduction, judged wrong at a574aaf (a metric-broadcast page led,
    # the description read as a wrong output): StepLR(step_size=5) stepped every batch
    report = diagnose_folder(BATCH_8 / "pytorch-mlp-loss-frozen-after-first-epoch-repro")
    assert report.hypotheses[0].id == "lr-decayed-to-zero-early"
