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
        # the decay read from a config dict (batch-24's ExponentialLR reproduction)
        (
            "CFG = dict(epochs=12, lr_decay=0.8)\n"
            + PER_BATCH.replace(
                "StepLR(optimizer, step_size=5, gamma=0.1)",
                'ExponentialLR(optimizer, gamma=CFG["lr_decay"])',
            ),
            True,
        ),
        (
            'config = {"step": 5000}\n'
            + PER_BATCH.replace("step_size=5", 'step_size=config["step"]'),
            False,
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


def test_a_decay_read_from_a_config_dict_is_seen_and_the_cpu_build_does_not_lead() -> None:
    # first-sight batch-24 reproduction, judged wrong at ffb2dea5: ExponentialLR(gamma=
    # CFG["lr_decay"]) stepped every batch, and the CPU-only-build page led on the log's
    # "torch 2.13.0+cpu" line although the run never asked for CUDA
    batch_24 = BATCH_8.parent / "batch-24"
    report = diagnose_folder(batch_24 / "r24D-pytorch-loss-plateaus-after-first-epoch-repro")
    shown = [h.id for h in report.hypotheses]
    assert shown[0] == "lr-decayed-to-zero-early"
    assert "torch-cpu-only-build" not in shown
