"""code.requires_grad_set_on_module: a freeze flag set on a module instead of its parameters."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.requires_grad_set_on_module"
SCRIPT = """
model = AutoModelForSequenceClassification.from_pretrained(name)
{freeze}
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
"""


def test_fires_on_the_batch_18_reproduction() -> None:
    case = ROOT / "benchmarks" / "first_sight" / "batch-18"
    found = file_findings(
        case / "r18E-transformers-frozen-encoder-still-changes-repro" / "train.py"
    )
    assert found[ID].values["line"] == 71


@pytest.mark.parametrize(
    "freeze",
    [
        "model.bert.requires_grad = False",
        "model.requires_grad = False",
        "model.encoder.layer.requires_grad = False",
    ],
)
def test_fires_on_a_flag_assigned_to_a_module(freeze: str) -> None:
    assert fires(SCRIPT.format(freeze=freeze), ID)


@pytest.mark.parametrize(
    "freeze",
    [
        "model.bert.requires_grad_(False)",
        "for p in model.bert.parameters():\n    p.requires_grad = False",
        "for n, p in model.named_parameters():\n    p.requires_grad = False",
        "model.classifier.weight.requires_grad = False",
    ],
)
def test_quiet_when_the_parameters_themselves_are_frozen(freeze: str) -> None:
    assert not fires(SCRIPT.format(freeze=freeze), ID)
