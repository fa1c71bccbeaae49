"""code.loss_rebuilt_as_leaf: a loss copied into a new leaf tensor or forced to require grad."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.loss_rebuilt_as_leaf"
BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (
            "def dice_loss(p, t):\n    d = (2 * (p * t).sum()) / (p + t).sum()\n"
            "    return torch.tensor(1.0 - d, requires_grad=True)",
            True,
        ),
        (
            "loss = torch.tensor(criterion(out, y).item(), requires_grad=True)\nloss.backward()",
            True,
        ),
        ("loss = criterion(out, y)\nloss.requires_grad = True\nloss.backward()", True),
        ("loss = criterion(out, y)\nloss.requires_grad_()\nloss.backward()", True),
        (
            "def dice_loss(p, t):\n    d = (2 * (p * t).sum()) / (p + t).sum()\n    return 1.0 - d",
            False,
        ),
        ("w = torch.tensor([0.1, 0.2], requires_grad=True)", False),  # a real leaf parameter
        ("scale = torch.tensor(init_scale, requires_grad=True)", False),  # not a loss
    ],
)
def test_fires_only_on_a_loss_made_a_new_leaf(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_segmentation_net_whose_dice_loss_stays_flat_gets_its_page() -> None:
    # batch-10 reproduction, judged family at 2c91f17 (learning-rate pages led)
    report = diagnose_folder(BATCH_10 / "r1-pytorch-segmentation-dice-loss-flat-repro")
    assert report.hypotheses[0].id == "loss-rebuilt-as-leaf-tensor"
