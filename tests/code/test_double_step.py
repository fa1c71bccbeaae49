"""code.optimizer_stepped_after_scaler: the GradScaler and a plain optimizer.step() both step."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.optimizer_stepped_after_scaler"
BATCH_6 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-6"

AFTER_BOTH_BRANCHES = """
for images, labels in loader:
    if fp16:
        with autocast():
            loss = criterion(model(images), labels)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss = criterion(model(images), labels)
        loss.backward()
    optimizer.step()
"""
IN_THE_ELSE_BRANCH = AFTER_BOTH_BRANCHES.replace(
    "        loss.backward()\n    optimizer.step()",
    "        loss.backward()\n        optimizer.step()",
)
BOTH_IN_ONE_BRANCH = """
for batch in loader:
    scaler.scale(model(batch)).backward()
    scaler.step(self.optimizer)
    scaler.update()
    self.optimizer.step()
"""
OTHER_OPTIMIZER = BOTH_IN_ONE_BRANCH.replace("self.optimizer.step()", "disc_optimizer.step()")


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (AFTER_BOTH_BRANCHES, True),
        (BOTH_IN_ONE_BRANCH, True),
        (IN_THE_ELSE_BRANCH, False),  # AMP on or off: one step per iteration either way
        (OTHER_OPTIMIZER, False),  # a second optimizer (a GAN's discriminator) is its own
    ],
)
def test_fires_only_when_one_optimizer_is_stepped_twice(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_fp16_loop_that_went_nan_after_6k_iterations_gets_its_page() -> None:
    # FlyEgle/imageclassification#1 (first-sight batch-6, judged family at 559cae3: an fp16
    # overflow page led): optimizer.step() after the if/else that already ran scaler.step.
    report = diagnose_folder(BATCH_6 / "pytorch-amp-double-optimizer-step-nan-1")
    assert report.hypotheses[0].id == "grad-scaler-optimizer-stepped-twice"
