"""code.reduced_over_batch_dim: softmax/argmax over dim 0 of (batch, classes) outputs."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.reduced_over_batch_dim"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("preds = logits.argmax(dim=0)", True),
        ("probs = F.softmax(logits, dim=0)", True),
        ("probs = torch.softmax(model(x), 0)", True),
        ("head = nn.Sequential(nn.Linear(4, 3), nn.Softmax(dim=0))", True),
        ("preds = logits.argmax(dim=1)", False),
        ("probs = F.softmax(logits, dim=-1)", False),
        ("attn = F.softmax(energy, dim=0)", False),
        ("best = losses.argmax(0)", False),
    ],
)
def test_fires_on_dim_zero_over_model_outputs(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_evaluation_that_softmaxes_over_the_batch_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-argmax-over-batch-dim")
    assert report.hypotheses[0].id == "softmax-argmax-over-batch-dimension"
