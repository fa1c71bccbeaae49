"""code.clip_after_optimizer_step: the gradients are clipped after the step that used them."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.clip_after_optimizer_step"
BATCH_8 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-8"

AFTER_THE_STEP = """
for x, y in loader:
    loss = loss_fn(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
"""
BEFORE_THE_STEP = """
for x, y in loader:
    loss = loss_fn(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
"""
# step, then the next micro-batch's backward, then its clip: the clip precedes its own step
NEXT_ITERATION = """
for x, y in loader:
    optimizer.step()
    optimizer.zero_grad()
    loss_fn(model(x), y).backward()
    accelerator.clip_grad_norm_(model.parameters(), 1.0)
"""
OUTSIDE_A_LOOP = """
loss.backward()
optimizer.step()
torch.nn.utils.clip_grad_value_(model.parameters(), 0.5)
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (AFTER_THE_STEP, True),
        (AFTER_THE_STEP.replace("clip_grad_norm_", "clip_grad_value_"), True),
        (BEFORE_THE_STEP, False),
        (NEXT_ITERATION, False),
        (OUTSIDE_A_LOOP, False),  # no loop: no iteration to read an order in
        (AFTER_THE_STEP.replace("opt.step()", "scheduler.step()"), False),  # not an optimizer
    ],
)
def test_fires_only_when_the_clip_follows_the_step_that_used_the_gradients(
    source: str, fires: bool
) -> None:
    assert (ID in findings(source)) is fires


def test_the_regression_loop_whose_loss_climbs_despite_clipping_gets_its_page() -> None:
    # first-sight batch-8 reproduction, judged family at a574aaf (the generic "learning rate
    # too high" page led): clip_grad_norm_ after opt.step(), so no update is clipped
    report = diagnose_folder(BATCH_8 / "pytorch-regression-loss-climbs-despite-clipping-repro")
    assert report.hypotheses[0].id == "gradient-clipping-disabled-loss-spikes"
