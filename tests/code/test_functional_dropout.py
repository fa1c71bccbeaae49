"""code.functional_dropout_always_on: F.dropout in forward() without the module's mode."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.functional_dropout_always_on"
CASE = ROOT / "benchmarks/first_sight/batch-25/r25E-accelerate-eval-metrics-not-reproducible-repro"

MODEL = """
import torch.nn.functional as F

class Net(nn.Module):
    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = F.dropout(h, p=0.3)
        return self.fc2(h)
"""


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (("p=0.3)", "p=0.3, training=self.training)"), False),  # follows the module's mode
        (("F.dropout(h, p=0.3)", "F.dropout(h, 0.3, self.training)"), False),  # positional flag
        (("F.dropout(", "F.dropout2d("), True),
        (("F.dropout(", "F.alpha_dropout("), False),  # defaults to training=False
        (("F.dropout(", "self.drop("), False),  # an nn.Dropout module follows eval()
        (("def forward(", "def augment("), False),  # not the model's forward pass
    ],
)
def test_fires_on_functional_dropout_without_a_training_flag_in_forward(
    change: tuple[str, str], fires: bool
) -> None:
    assert (ID in findings(MODEL.replace(*change))) is fires


def test_the_reproduction_whose_two_evaluations_disagree_is_found() -> None:
    """batch-25: two eval passes of the same model gave 0.8915 and 0.8920 (146 predictions
    flipped); the first-sight answer blamed a missing model.eval(), which the script calls."""
    found = file_findings(CASE / "train.py")[ID]
    assert "F.dropout(h, p=self.p)" in found.summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at ee315fe8 (batch-25) judged this reproduction's top answer not right."""
    assert diagnose_folder(CASE).hypotheses[0].id == "functional-dropout-ignores-eval"
