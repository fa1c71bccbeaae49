"""code.state_dict_snapshot_aliases_weights: the kept "best" state_dict is the live weights."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.state_dict_snapshot_aliases_weights"
BATCH_9 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-9"

EARLY_STOPPING = """
best_loss, best_state = float("inf"), None
for epoch in range(20):
    train_one_epoch(model, optimizer)
    val_loss = evaluate(model)
    if val_loss < best_loss:
        best_loss = val_loss
        best_state = model.state_dict()
model.load_state_dict(best_state)
"""
# Written to disk at the moment it is best: the file holds that moment's values.
SAVED_AT_ONCE = """
for epoch in range(20):
    train_one_epoch(model, optimizer)
    if evaluate(model) < best_loss:
        best_state = model.state_dict()
        torch.save(best_state, "best.pt")
"""

# The classic early-stopping helper (batch-24's reproduction): the snapshot is kept on the
# helper in a method the epoch loop calls, and restored from it after the loop.
HELPER = """
class EarlyStopping:
    def step(self, val_loss, model):
        if val_loss < self.best:
            self.best = val_loss
            self.best_state = model.state_dict()

stopper = EarlyStopping()
for epoch in range(20):
    train_one_epoch(model, optimizer)
    stopper.step(evaluate(model), model)
model.load_state_dict(stopper.best_state)
"""

# Restored inside the method that took it: nothing trained in between.
RESTORED_AT_ONCE = """
class Snapshot:
    def keep(self, model):
        self.best_state = model.state_dict()
        model.load_state_dict(self.best_state)
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (EARLY_STOPPING, True),
        (HELPER, True),
        (HELPER.replace("model.state_dict()", "copy.deepcopy(model.state_dict())"), False),
        (RESTORED_AT_ONCE, False),
        (EARLY_STOPPING.replace("model.state_dict()", "model.state_dict().copy()"), True),
        (EARLY_STOPPING.replace("model.state_dict()", "dict(model.state_dict())"), True),
        (EARLY_STOPPING.replace("model.state_dict()", "copy.deepcopy(model.state_dict())"), False),
        (
            EARLY_STOPPING.replace(
                "model.state_dict()", "{k: v.clone() for k, v in model.state_dict().items()}"
            ),
            False,
        ),
        (SAVED_AT_ONCE, False),
        (EARLY_STOPPING.replace("model.load_state_dict(best_state)", "print(best_loss)"), False),
    ],
)
def test_fires_only_for_a_live_snapshot_restored_or_saved_after_more_training(
    source: str, fires: bool
) -> None:
    assert (ID in findings(source)) is fires


def test_the_churn_model_whose_best_checkpoint_is_the_last_epoch_gets_its_page() -> None:
    # first-sight batch-9 reproduction, judged family at 1e00051 (a recalled early-stopping case
    # led): best_state = model.state_dict() inside the epoch loop, restored and saved after it
    report = diagnose_folder(BATCH_9 / "r1-pytorch-best-checkpoint-val-loss-mismatch-repro")
    assert report.hypotheses[0].id == "state-dict-snapshot-references-live-weights"


def test_an_early_stopping_helper_keeping_the_live_state_gets_its_page() -> None:
    # first-sight batch-24 reproduction, judged wrong at ffb2dea5: EarlyStopping.step keeps
    # self.best_state = model.state_dict(); main() restores stopper.best_state after the loop
    batch_24 = BATCH_9.parent / "batch-24"
    folder = batch_24 / "r24D-pytorch-early-stopping-best-weights-not-restored-repro"
    report = diagnose_folder(folder)
    assert report.hypotheses[0].id == "state-dict-snapshot-references-live-weights"
