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


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (("(cfg.lr, cfg.weight_decay, cfg.betas)", "(cfg.weight_decay, cfg.lr, cfg.betas)"), False),
        (("(cfg.lr, cfg.weight_decay, cfg.betas)", "(wd, lr, betas)"), False),
        (("(cfg.lr, cfg.weight_decay, cfg.betas)", "(lr, wd, betas)"), True),
        # by keyword, the order does not matter
        (
            (
                "(cfg.lr, cfg.weight_decay, cfg.betas)",
                "(learning_rate=cfg.lr, weight_decay=cfg.weight_decay, betas=cfg.betas)",
            ),
            False,
        ),
        # a name the function has no parameter for says nothing
        (("(cfg.lr, cfg.weight_decay, cfg.betas)", "(0.1, cfg.momentum, cfg.betas)"), False),
        # a plain function: no self to skip
        (("def configure_optimizers(self, ", "def configure_optimizers("), True),
    ],
)
def test_fires_on_hyperparameters_in_each_others_positions(
    change: tuple[str, str], fires: bool
) -> None:
    source = SCRIPT.replace(*change)
    if "def configure_optimizers(weight" in source:
        source = source.replace("model.configure_optimizers", "configure_optimizers")
    assert (ID in findings(source)) is fires


def test_the_reproduction_whose_loss_jumped_then_sat_at_chance_is_found() -> None:
    """batch-31's churn MLP: AdamW ran at lr 0.1 with weight decay 1e-3; first sight at
    f4ddcf4b led with a frozen-parameters page."""
    assert "cfg.lr" in file_findings(CASE / "train.py")[ID].summary
    assert diagnose_folder(CASE).hypotheses[0].id == "hyperparameters-passed-in-swapped-positions"
