"""code.softmax_into_cross_entropy: a model ending in softmax, trained with cross-entropy."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.softmax_into_cross_entropy"
BATCH_9 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-9"

SEQUENTIAL = """
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3), nn.Softmax(dim=-1))
loss = F.cross_entropy(model(x), y)
"""
FORWARD_LAYER = """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.out = nn.Softmax(dim=1)

    def forward(self, x):
        return self.out(self.fc(x))

criterion = nn.CrossEntropyLoss()
"""
FORWARD_CALL = """
class Net(nn.Module):
    def forward(self, x):
        return torch.softmax(self.fc(x), dim=-1)

loss = nn.CrossEntropyLoss()(Net()(x), y)
"""
# Probabilities only where predictions are reported: the loss still gets logits.
PREDICT_ONLY = """
class Net(nn.Module):
    def forward(self, x):
        return self.fc(x)

    def predict(self, x):
        return torch.softmax(self.forward(x), dim=-1)

criterion = nn.CrossEntropyLoss()
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (SEQUENTIAL, True),
        (FORWARD_LAYER, True),
        (FORWARD_CALL, True),
        (PREDICT_ONLY, False),
        (SEQUENTIAL.replace("F.cross_entropy", "F.nll_loss"), False),  # NLL expects log-probs
        (SEQUENTIAL.replace("nn.Softmax(dim=-1)", "nn.LogSoftmax(dim=-1)"), False),
        (SEQUENTIAL.replace("F.cross_entropy", "F.mse_loss"), False),  # no cross-entropy
    ],
)
def test_fires_only_when_a_softmax_output_meets_a_cross_entropy(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_glyph_classifier_whose_loss_flattens_at_1_5_gets_the_double_softmax_page() -> None:
    # first-sight batch-9 reproduction, judged wrong at 1e00051 (a metric-broadcast page led):
    # GlyphNet ends in nn.Softmax(dim=1) and trains with nn.CrossEntropyLoss
    report = diagnose_folder(BATCH_9 / "r1-pytorch-classifier-loss-plateau-repro")
    assert report.hypotheses[0].id == "softmax-before-cross-entropy"
