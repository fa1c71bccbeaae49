"""code.hyperparameters_passed_in_swapped_positions: lr and weight decay traded places."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.hyperparameters_passed_in_swapped_positions"
CASE = (
    ROOT
    / "benchmarks/first_sight/batch-31"
    / "r31a-pytorch-churn-mlp-loss-spikes-then-stuck-at-chance-repro"
)

SCRIPT = """
class Net(nn.Module):
    def configure_optimizers(self, weight_decay, learning_rate, betas):
        return torch.optim.AdamW(self.parameters(), lr=learning_rate, weight_decay=weight_decay)

optimizer = model.configure_optimizers(cfg.lr, cfg.weight_decay, cfg.betas)
"""


CALL = "(cfg.lr, cfg.weight_decay, cfg.betas)"
# The same helper as a plain function: no `self` to skip.
PLAIN = SCRIPT.replace("def configure_optimizers(self, ", "def configure_optimizers(").replace(
    "model.configure_optimizers", "configure_optimizers"
)


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (SCRIPT, True),
        (SCRIPT.replace(CALL, "(cfg.weight_decay, cfg.lr, cfg.betas)"), False),
        (SCRIPT.replace(CALL, "(wd, lr, betas)"), False),
        (SCRIPT.replace(CALL, "(lr, wd, betas)"), True),
        # by keyword, the order does not matter
        (
            SCRIPT.replace(
                CALL, "(learning_rate=cfg.lr, weight_decay=cfg.weight_decay, betas=cfg.betas)"
            ),
            False,
        ),
        # a name the function has no parameter for says nothing
        (SCRIPT.replace(CALL, "(0.1, cfg.momentum, cfg.betas)"), False),
        (PLAIN, True),
        (PLAIN.replace(CALL, "(cfg.weight_decay, cfg.lr, cfg.betas)"), False),
    ],
)
def test_fires_on_hyperparameters_in_each_others_positions(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_reproduction_whose_loss_jumped_then_sat_at_chance_is_found() -> None:
    """batch-31's churn MLP: AdamW ran at lr 0.1 with weight decay 1e-3; first sight at
    f4ddcf4b led with a frozen-parameters page."""
    assert "cfg.lr" in file_findings(CASE / "train.py")[ID].summary
    assert diagnose_folder(CASE).hypotheses[0].id == "hyperparameters-passed-in-swapped-positions"
