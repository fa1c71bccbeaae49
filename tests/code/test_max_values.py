"""code.max_values_as_prediction: max()'s values, not its indices, compared with labels."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.max_values_as_prediction"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("preds = torch.max(probs, dim=1)[0]\nacc = (preds == y).float().mean()", True),
        ("correct += (out.max(1)[0] == labels).sum().item()", True),
        ("score, _ = torch.max(logits, 1)\nok = score.eq(y).sum()", True),
        ("hit = logits.max(dim=-1).values != target", True),
        # the indices: the predicted class
        ("_, preds = torch.max(out, 1)\nacc = (preds == y).float().mean()", False),
        ("preds = torch.max(out, dim=1)[1]\nacc = (preds == y).sum()", False),
        ("acc = (out.argmax(1) == y).float().mean()", False),
        # a max over the whole tensor (one value) compared with a threshold is no prediction
        ("done = torch.max(err)[0] == 0", False),
        ("peak = x.max(1)[0]\nprint(peak.mean())", False),
    ],
)
def test_fires_only_on_the_values_compared(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_wafer_validation_loop_is_found() -> None:
    script = BATCH_12 / "r3-accelerate-wafer-cnn-val-acc-zero-repro" / "train.py"
    assert file_findings(script)[ID].values["line"] == 98  # preds == y after torch.max(...)[0]
