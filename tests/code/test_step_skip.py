"""code.rank_local_step_skip: a training step skipped on a value each rank computes itself."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.rank_local_step_skip"
LIGHTNING = """
class Model(LightningModule):
    def training_step(self, batch, batch_idx):
        loss = self.loss(self(batch[0]), batch[1])
        if {condition}:
            return {returned}
        return loss
"""
LOOP = """
model = DDP(model, device_ids=[rank])
for batch in loader:
    loss = criterion(model(batch[0]), batch[1])
    if {condition}:
        {skip}
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
"""


@pytest.mark.parametrize(
    ("condition", "returned"),
    [("torch.isnan(loss)", "None"), ("random.random() < 0.05", ""), ("not loss.isfinite()", "")],
)
def test_fires_on_a_lightning_step_that_returns_none_on_its_own_loss(
    condition: str, returned: str
) -> None:
    assert fires(LIGHTNING.format(condition=condition, returned=returned), ID)


def test_fires_on_a_ddp_loop_that_skips_backward_on_its_own_loss() -> None:
    assert fires(LOOP.format(condition="torch.isnan(loss)", skip="continue"), ID)


@pytest.mark.parametrize(
    "source",
    [
        # the step count is the same on every rank
        LIGHTNING.format(condition="batch_idx % 100 == 0", returned="None"),
        LIGHTNING.format(condition="self.global_step > 1000", returned="None"),
        # a value is returned, not a skip
        LIGHTNING.format(condition="torch.isnan(loss)", returned="loss * 0"),
        # one process: skipping a NaN batch in a plain loop is harmless
        LOOP.format(condition="torch.isnan(loss)", skip="continue").replace(
            "model = DDP(model, device_ids=[rank])", "model = model.cuda()"
        ),
        # the skip comes after backward: every rank has all-reduced already
        LOOP.format(condition="False", skip="pass").replace(
            "optimizer.zero_grad()",
            "optimizer.zero_grad()\n    if torch.isnan(loss):\n        continue",
        ),
    ],
)
def test_quiet_on_step_counts_returned_values_one_process_or_a_skip_after_backward(
    source: str,
) -> None:
    assert not fires(source, ID)


def test_the_batch_20_thread_leads_with_the_rank_local_page() -> None:
    """t20F-lightning-ddp-freeze-training-step-none (batch-20, judged wrong at 01690ec1: fp16
    NaN pages led, read from 'when the loss is NaN'): the posted training_step returns None on
    a NaN loss or a 5% random draw (line 6)."""
    case = ROOT / "benchmarks/first_sight/batch-20/t20F-lightning-ddp-freeze-training-step-none"
    assert file_findings(case / "train.py")[ID].evidence[0].line == 6
    assert diagnose_folder(case).hypotheses[0].id == "rank-local-decision-diverges"
