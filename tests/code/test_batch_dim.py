"""code.reduced_over_batch_dim: softmax/argmax over dim 0 of (batch, classes) outputs."""

from __future__ import annotations

import pytest
from code_helpers import CASES, ROOT, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.reduced_over_batch_dim"
BATCH_30 = ROOT / "benchmarks" / "first_sight" / "batch-30"


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
        # no dim: one index for the whole flattened batch (batch-30's wafer-CNN reproduction)
        ("preds = model(x).argmax()", True),
        ("preds = torch.argmax(logits)", True),
        ("best = losses.argmax()", False),
        # one index on purpose: the best of a 1-D ranking (batch-8's embedding reproduction)
        ("best = scores.argmax().item()", False),
        ("preds = torch.argmax(logits, 1)", False),
    ],
)
def test_fires_on_dim_zero_over_model_outputs(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_evaluation_that_softmaxes_over_the_batch_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-argmax-over-batch-dim")
    assert report.hypotheses[0].id == "softmax-argmax-over-batch-dimension"


def test_the_evaluation_with_a_dimensionless_argmax_gets_its_page() -> None:
    """batch-30: `model(x).argmax()` in evaluate() gives val accuracy 0.0000 while training
    accuracy reaches 0.88; at 2c9e35a3 a learning-rate page led the case."""
    report = diagnose_folder(BATCH_30 / "r30a-pytorch-cnn-val-accuracy-stuck-at-zero-repro")
    assert report.hypotheses[0].id == "softmax-argmax-over-batch-dimension"
