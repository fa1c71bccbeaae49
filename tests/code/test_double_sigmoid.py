"""code.sigmoid_into_bce_with_logits: a sigmoid output trained with BCEWithLogitsLoss."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.sigmoid_into_bce_with_logits"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "class Net(nn.Module):\n    def forward(self, x):\n"
            "        return torch.sigmoid(self.fc(x)).squeeze(-1)\n"
            "criterion = nn.BCEWithLogitsLoss()",
            True,
        ),
        (
            "model = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())\n"
            "loss = F.binary_cross_entropy_with_logits(model(x), y)",
            True,
        ),
        (
            "class Net(nn.Module):\n    def forward(self, x):\n        return self.fc(x)\n"
            "criterion = nn.BCEWithLogitsLoss()",
            False,
        ),
        (
            "class Net(nn.Module):\n    def forward(self, x):\n"
            "        return torch.sigmoid(self.fc(x))\ncriterion = nn.BCELoss()",
            False,
        ),
        (
            "class Net(nn.Module):\n    def forward(self, x):\n"
            "        return torch.sigmoid(self.fc(x))\n"
            "a = nn.BCELoss()\nb = nn.BCEWithLogitsLoss()",
            False,
        ),
    ],
)
def test_fires_on_a_sigmoid_output_with_a_logits_loss(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_churn_model_whose_loss_floors_at_half_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-sigmoid-into-bce-with-logits")
    assert report.hypotheses[0].id == "sigmoid-before-bce-with-logits"
